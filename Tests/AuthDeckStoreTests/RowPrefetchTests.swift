import Foundation
import Testing
import GRDB
@testable import AuthDeckStore
import AuthDeckTestSupport

/// `RowPrefetch`: rows stepped and copied on another thread read exactly as the statement
/// reads them, errors reach the reader of their SELECT, and stopping early lets go of the
/// connection.
@Suite struct RowPrefetchTests {
    let directory = TempDirectory()
    let rowCount = 3 * RowPrefetch.batchRows + 17  // several batches and a part one

    /// A table whose rows mix every kind of cell: integers, texts (empty ones too), blobs, NULLs.
    func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: directory.file("t.db"))
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (i INTEGER, s TEXT, b BLOB, n TEXT)")
            for k in 0..<rowCount {
                let text: String? = k % 7 == 0 ? nil : k % 5 == 0 ? "" : "text \(k) é"
                let blob: Data? = k % 3 == 0 ? nil : Data((0..<(k % 40)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ k) })
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, NULL)", arguments: [k % 11 == 0 ? nil : Int64(k) << 33, text, blob])
            }
        }
        return queue
    }

    struct Values: Equatable {
        var integer: Int64?
        var text: String?
        var blob: Data
        var nullColumn: Bool
        var isFive: Bool
    }

    func values(_ rows: RowReader) throws -> [Values] {
        var out: [Values] = []
        while try rows.next() {
            out.append(Values(integer: rows.optionalInt64(0), text: rows.optionalString(1), blob: rows.data(2),
                              nullColumn: rows.isNull(3), isFive: rows.text(1, equals: "text 6 é")))
        }
        return out
    }

    @Test func prefetchedRowsReadAsTheStatementReadsThem() throws {
        let sql = "SELECT i, s, b, n FROM t ORDER BY rowid"
        let bound = "SELECT i, s, b, n FROM t WHERE rowid > ? ORDER BY rowid"
        try database().read { db in
            let direct = try values(RowReader(db, sql: sql))
            let directBound = try values(RowReader(db, sql: bound, arguments: [.integer(100)]))
            let prefetch = try RowPrefetch(db, queries: [(sql, []), (bound, [.integer(100)])])
            defer { prefetch.finish() }
            let copied = try values(RowReader(prefetch, feed: 0))
            let copiedBound = try values(RowReader(prefetch, feed: 1))
            #expect(direct.count == rowCount && directBound.count == rowCount - 100)
            #expect(copied == direct)
            #expect(copiedBound == directBound)
            #expect(direct.contains { $0.text == "" } && direct.contains { $0.text == nil } && direct.contains { $0.isFive })
        }
    }

    @Test func anErrorInALaterSelectReachesItsReaderOnly() throws {
        try database().read { db in
            let prefetch = try RowPrefetch(db, queries: [("SELECT i, s, b, n FROM t", []), ("SELECT i FROM no_such_table", [])])
            defer { prefetch.finish() }
            #expect(try values(RowReader(prefetch, feed: 0)).count == rowCount)
            let failing = RowReader(prefetch, feed: 1)
            #expect {
                _ = try failing.next()
            } throws: { error in
                "\(error)".contains("no such table: no_such_table")
            }
        }
    }

    @Test func stoppingEarlyLetsGoOfTheConnection() throws {
        let queue = try database()
        try queue.read { db in
            let prefetch = try RowPrefetch(db, queries: [("SELECT i, s FROM t", []), ("SELECT s FROM t", [])])
            let rows = RowReader(prefetch, feed: 0)
            #expect(try rows.next())
            prefetch.finish()  // must return although most rows were never read
            // The connection is this thread's again: a statement of its own runs.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == rowCount)
        }
    }
}
