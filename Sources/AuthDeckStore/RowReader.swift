import Foundation
import GRDB
import GRDBSQLite

/// Steps through one SELECT with SQLite's C API and reads columns by position, inside a
/// GRDB read or write (so the transaction and the connection stay GRDB's).
///
/// Why: listings read every account and credential row of the store. Through GRDB's `Row`,
/// each column went through a generic decoding path and each text through `String(cString:)`
/// after a type check — at 10,000 accounts that was most of the store read. Here a text
/// column is one `sqlite3_column_text` and one String made from a known length. A reader
/// can also read rows a `RowPrefetch` copied on another thread, with the same calls.
final class RowReader {
    /// Where the rows come from: a statement stepped here, or the batches a `RowPrefetch`
    /// copied on its own thread (the same SELECT, already stepped).
    private enum Source {
        case statement(OpaquePointer, connection: OpaquePointer)
        case prefetched(RowPrefetch, RowPrefetch.Feed)
    }

    private let source: Source
    private let sql: String
    /// The prefetched rows at hand, and the row of them being read.
    private var batch = RowPrefetch.Batch(columns: 0)
    private var row = -1

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
        source = .statement(try Self.prepare(sql, arguments: arguments, on: connection), connection: connection)
        self.sql = sql
    }

    /// The rows `prefetch` copies from its SELECT number `index`.
    init(_ prefetch: RowPrefetch, feed index: Int) {
        source = .prefetched(prefetch, prefetch.feeds[index])
        sql = prefetch.feeds[index].sql
    }

    deinit {
        if case .statement(let statement, _) = source { sqlite3_finalize(statement) }
    }

    /// `sql` prepared on `connection` with `arguments` bound to its `?`s in order.
    static func prepare(_ sql: String, arguments: [Argument], on connection: OpaquePointer) throws -> OpaquePointer {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
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
            if bound != SQLITE_OK {
                sqlite3_finalize(prepared)
                throw DatabaseError(resultCode: ResultCode(rawValue: bound), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
            }
        }
        return prepared
    }

    /// Moves to the next row: false when there are no more.
    func next() throws -> Bool {
        switch source {
        case let .statement(statement, connection):
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            case let code:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
            }
        case let .prefetched(prefetch, feed):
            row += 1
            while row >= batch.rows {
                guard let next = try prefetch.nextBatch(of: feed) else { return false }
                batch = next
                row = 0
            }
            return true
        }
    }

    /// The prefetched cell of column `index` in the current row.
    private func cell(_ index: Int32) -> RowPrefetch.Cell { batch.cells[row * batch.columns + Int(index)] }

    /// Calls `body` with the bytes of text or blob column `index` (nil for NULL).
    private func withBytes<R>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        switch source {
        case let .statement(statement, _):
            // The column's type is asked only when SQLite gives no pointer, which a NULL does;
            // an empty text is normally a pointer to "".
            guard let text = sqlite3_column_text(statement, index) else {
                return body(isNull(index) ? nil : UnsafeBufferPointer(start: nil, count: 0))
            }
            return body(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))))
        case .prefetched:
            let cell = cell(index)
            guard cell.length >= 0 else { return body(nil) }
            return batch.bytes.withUnsafeBufferPointer { bytes in
                body(UnsafeBufferPointer(rebasing: bytes[Int(cell.offset) ..< Int(cell.offset) + Int(cell.length)]))
            }
        }
    }

    /// Whether column `index` is NULL.
    func isNull(_ index: Int32) -> Bool {
        switch source {
        case let .statement(statement, _): return sqlite3_column_type(statement, index) == SQLITE_NULL
        case .prefetched: return cell(index).length == RowPrefetch.Cell.null
        }
    }

    /// A text column ("" for NULL).
    func string(_ index: Int32) -> String { optionalString(index) ?? "" }

    /// A text column, nil for NULL.
    func optionalString(_ index: Int32) -> String? {
        withBytes(index) { $0.map { String(decoding: $0, as: UTF8.self) } }
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
        var string = string
        return withBytes(index) { bytes in
            guard let bytes else { return false }
            return string.withUTF8 { $0.count == bytes.count && (bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0) }
        }
    }

    /// An integer column (0 for NULL).
    func int64(_ index: Int32) -> Int64 {
        switch source {
        case let .statement(statement, _): return sqlite3_column_int64(statement, index)
        case .prefetched:
            let cell = cell(index)
            return cell.length == RowPrefetch.Cell.integer ? cell.integer : 0
        }
    }

    /// An integer column, nil for NULL.
    func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }

    /// A blob column's bytes (empty for NULL).
    func data(_ index: Int32) -> Data {
        switch source {
        case let .statement(statement, _):
            guard let bytes = sqlite3_column_blob(statement, index) else { return Data() }
            return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, index)))
        case .prefetched:
            return withBytes(index) { bytes in bytes.map { Data(buffer: $0) } ?? Data() }
        }
    }
}
