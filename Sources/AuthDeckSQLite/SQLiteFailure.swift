/// A failure reported by SQLite's C API: its result code and message, and the statement.
public struct SQLiteFailure: Error, CustomStringConvertible {
    /// SQLite's (extended) result code, such as SQLITE_BUSY or SQLITE_FULL.
    public let code: Int32
    public let message: String
    public let sql: String

    public var description: String { "SQLite error \(code): \(message) (\(sql))" }
}
