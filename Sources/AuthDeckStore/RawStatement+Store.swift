import GRDB
import AuthDeckSQLite

extension RawStatement {
    /// A statement on `db`'s connection, run inside the GRDB transaction `db` belongs to (so
    /// the transaction and the connection stay GRDB's).
    convenience init(_ db: Database, sql: String, arguments: [Argument] = []) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the store's connection is closed", sql: sql)
        }
        try self.init(connection, sql: sql, arguments: arguments)
    }
}

extension DatabaseError {
    /// GRDB's form of a failure met through `RawStatement`, so the store words both alike.
    init(_ failure: SQLiteFailure) {
        self.init(resultCode: ResultCode(rawValue: failure.code), message: failure.message, sql: failure.sql)
    }
}
