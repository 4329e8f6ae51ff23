import Foundation
import GRDB
import GRDBSQLite
import AuthDeckCore

/// Steps through one SELECT with SQLite's C API and reads columns by position, inside a
/// GRDB read or write (so the transaction and the connection stay GRDB's).
///
/// Why: listings read every account and credential row, and GRDB's `Row` decodes each column
/// through a generic path; here a text column is one String made from a known length.
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

    /// Column `index` of the current row as SQLite's value, whose type, text, length or integer
    /// are then read off the value. Why: each `sqlite3_column_*` call takes the connection's
    /// mutex, and a text or an optional integer took two of them.
    /// SQLite calls such a value unprotected: safe to read while no other thread uses the
    /// connection, which GRDB guarantees for the transaction a reader runs in.
    private func value(_ index: Int32) -> OpaquePointer? { sqlite3_column_value(statement, index) }

    /// Whether column `index` is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_value_type(value(index)) == SQLITE_NULL }

    /// A text column ("" for NULL).
    func string(_ index: Int32) -> String { optionalString(index) ?? "" }

    /// A text column, nil for NULL.
    func optionalString(_ index: Int32) -> String? {
        withText(index) { text in text.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// A text column, nil for NULL; `previous` itself, not a new String, when the text is the
    /// same. Why: every account of a tenant has the same realm, so each one is an allocation
    /// fewer in a listing.
    func optionalString(_ index: Int32, sameAs previous: String?) -> String? {
        withText(index) { text in
            guard let text else { return nil }
            if var previous, previous.withUTF8({ Self.equal($0, text) }) { return previous }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// Whether text column `index` holds exactly the bytes of `string` (false for NULL).
    func text(_ index: Int32, equals string: String) -> Bool {
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
    func int64(_ index: Int32) -> Int64 { sqlite3_value_int64(value(index)) }

    /// An integer column, nil for NULL.
    func optionalInt64(_ index: Int32) -> Int64? {
        let value = value(index)
        return sqlite3_value_type(value) == SQLITE_NULL ? nil : sqlite3_value_int64(value)
    }

    /// An integer column of seconds since the epoch (the epoch for NULL).
    func instant(_ index: Int32) -> Instant { Instant(secondsSinceEpoch: int64(index)) }

    /// An integer column of seconds since the epoch, nil for NULL.
    func optionalInstant(_ index: Int32) -> Instant? { optionalInt64(index).map(Instant.init(secondsSinceEpoch:)) }

    /// A blob column's bytes (empty for NULL).
    func data(_ index: Int32) -> Data {
        let value = value(index)
        guard let bytes = sqlite3_value_blob(value) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_value_bytes(value)))
    }

    private func failure(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
