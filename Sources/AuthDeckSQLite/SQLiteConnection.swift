import GRDBSQLite

/// A connection of its own to an existing database, for a process without GRDB (the front).
///
/// Why not GRDB: linking it into the front would bring back the start-up cost the front
/// exists to avoid.
public final class SQLiteConnection {
    /// The connection, for `RawStatement`s made on it.
    public let handle: OpaquePointer

    /// Opens an existing database read-write (never creates one), waiting up to 5 s on a lock
    /// held by another authdeck process.
    public init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw SQLiteFailure(code: code, message: message, sql: "open \(path)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 5000)
        // Keep the -wal and -shm files when this, the last connection, closes. Why: creating,
        // sizing and deleting them again on every call is system time a short process need not spend.
        var persist: Int32 = 1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        // ...but emptied (truncated to 0 bytes) once the closing checkpoint has copied its
        // frames into the store. Why: a kept WAL still holding frames is recovered afresh by the
        // next process to open the store (the first connection resets the -shm index), which
        // then checkpoints the same frames again on close: three fdatasyncs (WAL, directory,
        // store) in every cached `authdeck token` after the front's once-a-minute "last used"
        // write, until some other writer reset the WAL.
        sqlite3_exec(handle, "PRAGMA journal_size_limit = 0", nil, nil, nil)
    }

    deinit { sqlite3_close(handle) }

    /// A statement on this connection (see `RawStatement`).
    public func statement(_ sql: String, _ arguments: [RawStatement.Argument] = []) throws -> RawStatement {
        try RawStatement(handle, sql: sql, arguments: arguments)
    }

    /// Runs a statement whose rows do not matter.
    public func execute(_ sql: String, _ arguments: [RawStatement.Argument] = []) throws {
        try statement(sql, arguments).run()
    }
}
