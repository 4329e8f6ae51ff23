import CSQLite

/// A bare SQLite connection: just what the front needs to read a few rows and write one.
///
/// Why not GRDB: it is the store's library in `authdeck-full`, and linking it here would bring
/// back the start-up cost the front exists to avoid. Every failure is a thrown `Failure`;
/// the front turns any of them into "let authdeck-full answer".
final class SQLiteConnection {
    struct Failure: Error {}

    /// One column value of a result row.
    enum Value {
        case null
        case integer(Int64)
        case text(String)
        case blob([UInt8])

        var text: String? { if case .text(let s) = self { return s }; return nil }
        var integer: Int64? { if case .integer(let n) = self { return n }; return nil }
        var bytes: [UInt8]? {
            switch self {
            case .blob(let b): return b
            case .text(let s): return Array(s.utf8)
            default: return nil
            }
        }
    }

    private var handle: OpaquePointer?

    /// Opens an existing database read-write (never creates one), waiting up to 5 s on a lock
    /// held by another authdeck process.
    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw Failure()
        }
        sqlite3_busy_timeout(handle, 5000)
        // Keep the -wal and -shm files when this, the last connection, closes. Why: creating,
        // sizing and deleting them again on every call is system time the front need not spend.
        var persist: Int32 = 1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
    }

    deinit { sqlite3_close(handle) }

    /// Runs `sql` with text `arguments`, calling `row` with each result row's values.
    func query(_ sql: String, _ arguments: [String] = [], row: ([Value]) throws -> Void) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw Failure() }
        defer { sqlite3_finalize(statement) }
        for (i, argument) in arguments.enumerated() {
            guard sqlite3_bind_text(statement, Int32(i + 1), argument, -1, ad_sqlite_transient()) == SQLITE_OK else { throw Failure() }
        }
        let columns = sqlite3_column_count(statement)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                try row((0..<columns).map { Self.value(statement, $0) })
            case SQLITE_DONE:
                return
            default:
                throw Failure()
            }
        }
    }

    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ arguments: [String] = []) throws {
        try query(sql, arguments) { _ in }
    }

    private static func value(_ statement: OpaquePointer?, _ column: Int32) -> Value {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let base = sqlite3_column_text(statement, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let base = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default:
            return .null
        }
    }
}
