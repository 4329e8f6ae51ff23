import Foundation
import GRDB
import GRDBSQLite

/// Steps a list of SELECTs on a thread of its own and copies their rows into batches, while
/// the thread that asked turns the rows of the batches already copied into values.
///
/// Why: reading every account of a large store was two halves of equal cost one after the
/// other — SQLite decoding rows (`sqlite3_step` and the column calls) and Swift making Strings
/// and accounts of them — on a machine with two cores, one of them idle. Here the second core
/// does SQLite's half. The copying thread allocates one buffer per batch, so the two threads
/// hardly meet in the allocator; they meet once per batch of rows, under a lock.
///
/// The SELECTs run in the caller's transaction, on its connection: while a prefetch is under
/// way the caller must not use the connection itself, and it must call `finish()` (which
/// waits for the copying thread) before its transaction ends — `DeckStore` does both.
final class RowPrefetch: @unchecked Sendable {
    /// One SELECT's rows, as copied.
    final class Feed {
        fileprivate var batches: [Batch] = []
        fileprivate var ended = false
        fileprivate var failure: DatabaseError?
        let sql: String
        fileprivate init(sql: String) { self.sql = sql }
    }

    /// Rows of one SELECT, copied: each row's cells, column by column, and the bytes of its
    /// texts and blobs.
    struct Batch {
        var columns: Int
        var cells: [Cell] = []
        var bytes: [UInt8] = []
        var rows: Int { columns == 0 ? 0 : cells.count / columns }
    }

    /// A copied value: NULL, an integer, or `length` bytes of text or blob at `offset`.
    struct Cell {
        static let null: Int32 = -1
        static let integer: Int32 = -2
        var length: Int32
        var offset: Int32
        var integer: Int64
    }

    private let condition = NSCondition()
    private var cancelled = false
    private var done = false
    let feeds: [Feed]

    /// Starts copying the rows of each of `queries` (SQL and its arguments), in order, from
    /// `db`'s connection.
    init(_ db: Database, queries: [(sql: String, arguments: [RowReader.Argument])]) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the store's connection is closed")
        }
        feeds = queries.map { Feed(sql: $0.sql) }
        let work = UncheckedConnection(connection)
        Thread.detachNewThread { [self] in
            for (index, query) in queries.enumerated() where !isCancelled {
                copy(query.sql, arguments: query.arguments, on: work.connection, into: feeds[index])
            }
            condition.withLock {
                for feed in feeds where !feed.ended { feed.ended = true }
                done = true
                condition.broadcast()
            }
        }
    }

    /// Stops copying (at the next row) and waits until the copying thread has let go of the
    /// connection. Call it before the transaction ends, whatever happened.
    func finish() {
        condition.withLock {
            cancelled = true
            while !done { condition.wait() }
        }
    }

    private var isCancelled: Bool { condition.withLock { cancelled } }

    /// The next batch of `feed`, waiting for it; nil when the SELECT has no more rows.
    func nextBatch(of feed: Feed) throws -> Batch? {
        try condition.withLock {
            while feed.batches.isEmpty && !feed.ended { condition.wait() }
            if let failure = feed.failure { throw failure }
            return feed.batches.isEmpty ? nil : feed.batches.removeFirst()
        }
    }

    /// Rows per batch: small enough that the first arrive at once, large enough that the lock
    /// is taken a few dozen times for 10,000 accounts.
    static let batchRows = 256

    private func copy(_ sql: String, arguments: [RowReader.Argument], on connection: OpaquePointer, into feed: Feed) {
        let statement: OpaquePointer
        do {
            statement = try RowReader.prepare(sql, arguments: arguments, on: connection)
        } catch {
            end(feed, failure: error as? DatabaseError)
            return
        }
        defer { sqlite3_finalize(statement) }
        let columns = Int(sqlite3_column_count(statement))
        var batch = Batch(columns: columns)
        batch.cells.reserveCapacity(Self.batchRows * columns)
        while true {
            let code = sqlite3_step(statement)
            guard code == SQLITE_ROW else {
                if code != SQLITE_DONE {
                    end(feed, failure: DatabaseError(resultCode: ResultCode(rawValue: code),
                                                     message: String(cString: sqlite3_errmsg(connection)), sql: sql))
                    return
                }
                break
            }
            for column in 0..<Int32(columns) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL:
                    batch.cells.append(Cell(length: Cell.null, offset: 0, integer: 0))
                case SQLITE_INTEGER:
                    batch.cells.append(Cell(length: Cell.integer, offset: 0, integer: sqlite3_column_int64(statement, column)))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    let start = batch.bytes.count
                    if count > 0, let blob = sqlite3_column_blob(statement, column) {
                        batch.bytes.append(contentsOf: UnsafeRawBufferPointer(start: blob, count: count))
                    }
                    batch.cells.append(Cell(length: Int32(count), offset: Int32(start), integer: 0))
                default:  // text (and floats, which authdeck does not store, as text)
                    let text = sqlite3_column_text(statement, column)
                    let count = Int(sqlite3_column_bytes(statement, column))
                    let start = batch.bytes.count
                    if let text, count > 0 { batch.bytes.append(contentsOf: UnsafeBufferPointer(start: text, count: count)) }
                    batch.cells.append(Cell(length: Int32(count), offset: Int32(start), integer: 0))
                }
            }
            if batch.rows == Self.batchRows {
                guard publish(batch, to: feed) else { return }
                batch = Batch(columns: columns)
                batch.cells.reserveCapacity(Self.batchRows * columns)
            }
        }
        if batch.rows > 0 { _ = publish(batch, to: feed) }
        end(feed, failure: nil)
    }

    /// Hands a batch over; false when the reader has stopped wanting rows.
    private func publish(_ batch: Batch, to feed: Feed) -> Bool {
        condition.withLock {
            feed.batches.append(batch)
            condition.broadcast()
            return !cancelled
        }
    }

    private func end(_ feed: Feed, failure: DatabaseError?) {
        condition.withLock {
            feed.failure = failure
            feed.ended = true
            condition.broadcast()
        }
    }
}

/// The connection handed to the copying thread (used there alone while a prefetch runs).
private struct UncheckedConnection: @unchecked Sendable {
    let connection: OpaquePointer
    init(_ connection: OpaquePointer) { self.connection = connection }
}
