#if canImport(Glibc)
import Glibc
#endif
import GRDBSQLite

/// One prepared statement, stepped row by row, its columns read by position: the thin
/// wrapper over SQLite's C API that both binaries use where GRDB is not (the store's
/// listings, inside GRDB's transactions; the front, which must not link GRDB at all).
///
/// Why not GRDB's `Row` for listings: it decodes each column through a generic path, and a
/// listing reads every account row; here a text column is one String from a known length.
public final class RawStatement {
    private let statement: OpaquePointer
    private let connection: OpaquePointer
    private let sql: String

    /// A value bound to a `?`.
    public enum Argument {
        case text(String)
        case integer(Int64)
    }

    /// Prepares `sql` on `connection` and binds `arguments` to its `?`s in order. The
    /// connection must outlive the statement and not be used by another thread meanwhile.
    public init(_ connection: OpaquePointer, sql: String, arguments: [Argument] = []) throws {
        self.connection = connection
        self.sql = sql
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw SQLiteFailure(code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        self.statement = prepared
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
    public func next() throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw failure(code)
        }
    }

    /// Steps through every row; for statements that return none (or whose rows do not matter).
    public func run() throws {
        while try next() {}
    }

    /// Column `index` of the current row as SQLite's value, whose type, text, length or integer
    /// are then read off it: one call, where each `sqlite3_column_*` call takes the
    /// connection's mutex. Safe while no other thread uses the connection (see `init`).
    private func value(_ index: Int32) -> OpaquePointer? { sqlite3_column_value(statement, index) }

    /// A text column ("" for NULL).
    public func string(_ index: Int32) -> String { optionalString(index) ?? "" }

    /// A text column, nil for NULL.
    public func optionalString(_ index: Int32) -> String? {
        withText(index) { text in text.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// A text column, nil for NULL; `previous` itself, not a new String, when the text is the
    /// same. Why: every account of a tenant has the same realm, an allocation fewer a row.
    public func optionalString(_ index: Int32, sameAs previous: String?) -> String? {
        withText(index) { text in
            guard let text else { return nil }
            if var previous, previous.withUTF8({ Self.equal($0, text) }) { return previous }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// Whether text column `index` holds exactly the bytes of `string` (false for NULL).
    public func text(_ index: Int32, equals string: String) -> Bool {
        var string = string
        return withText(index) { text in text.map { text in string.withUTF8 { Self.equal($0, text) } } ?? false }
    }

    /// Calls `body` with the UTF-8 bytes of column `index`, nil for NULL.
    private func withText<R>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        let value = value(index)
        guard sqlite3_value_type(value) != SQLITE_NULL else { return body(nil) }
        // (No pointer for a value that is not NULL: an empty text, or no memory to convert it.)
        guard let text = sqlite3_value_text(value) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
    }

    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// An integer column (0 for NULL).
    public func int64(_ index: Int32) -> Int64 { sqlite3_value_int64(value(index)) }

    /// An integer column, nil for NULL.
    public func optionalInt64(_ index: Int32) -> Int64? {
        let value = value(index)
        return sqlite3_value_type(value) == SQLITE_NULL ? nil : sqlite3_value_int64(value)
    }

    /// A blob (or text) column's bytes, nil for NULL.
    public func bytes(_ index: Int32) -> [UInt8]? {
        let value = value(index)
        guard sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        guard let bytes = sqlite3_value_blob(value) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))))
    }

    private func failure(_ code: Int32) -> SQLiteFailure {
        SQLiteFailure(code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
