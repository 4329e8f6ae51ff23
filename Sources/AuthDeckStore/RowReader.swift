import Foundation
import GRDB
import GRDBSQLite

/// Steps through one SELECT with SQLite's C API and reads columns by position, inside a
/// GRDB read or write (so the transaction and the connection stay GRDB's).
///
/// Why: listings read every account and credential row of the store. Through GRDB's `Row`,
/// each column went through a generic decoding path and each text through `String(cString:)`
/// after a type check — at 10,000 accounts that was most of the store read. Here a text
/// column is one `sqlite3_column_text` and one String made from a known length.
final class RowReader {
    private let statement: OpaquePointer
    private let connection: OpaquePointer
    private let sql: String

    /// A value bound to a `?`.
    enum Argument {
        case text(String)
        case integer(Int64)
    }

    /// Prepares `sql` on `db`'s connection and binds `arguments` to its `?`s in order.
    init(_ db: Database, sql: String, arguments: [Argument] = []) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the store's connection is closed", sql: sql)
        }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        self.statement = prepared
        self.connection = connection
        self.sql = sql
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            let bound: Int32
            switch argument {
            case .text(let text):
                // SQLITE_TRANSIENT (-1): SQLite copies the text before this call returns.
                bound = sqlite3_bind_text(prepared, position, text, -1,
                                          unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self))
            case .integer(let value):
                bound = sqlite3_bind_int64(prepared, position, value)
            }
            if bound != SQLITE_OK { throw failure(bound) }
        }
    }

    deinit { sqlite3_finalize(statement) }

    /// Moves to the next row: false when there are no more.
    func next() throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw failure(code)
        }
    }

    /// Whether column `index` is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    /// A text column ("" for NULL).
    func string(_ index: Int32) -> String { optionalString(index) ?? "" }

    /// A text column, nil for NULL. (The column's type is asked only when SQLite gives no
    /// text pointer, which a NULL does; an empty text is normally a pointer to "".)
    func optionalString(_ index: Int32) -> String? {
        guard let text = sqlite3_column_text(statement, index) else { return isNull(index) ? nil : "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
    }

    /// A text column, nil for NULL; `previous` itself, not a new String, when the text is the
    /// same. Why: every account of a tenant has the same realm, and 10,000 copies of it were
    /// 10,000 allocations (and their pages) in a listing.
    func optionalString(_ index: Int32, sameAs previous: String?) -> String? {
        if let previous, text(index, equals: previous) { return previous }
        return optionalString(index)
    }

    /// Whether text column `index` holds exactly the bytes of `string` (false for NULL).
    func text(_ index: Int32, equals string: String) -> Bool {
        guard let text = sqlite3_column_text(statement, index) else { return false }
        let count = Int(sqlite3_column_bytes(statement, index))
        var string = string
        return string.withUTF8 { $0.count == count && (count == 0 || memcmp($0.baseAddress!, text, count) == 0) }
    }

    /// An integer column (0 for NULL).
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    /// An integer column, nil for NULL.
    func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }

    /// A blob column's bytes (empty for NULL).
    func data(_ index: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(statement, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, index)))
    }

    private func failure(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
