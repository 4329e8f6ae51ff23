import Foundation
import GRDB
import AuthDeckCore

/// Reads cookies from a Firefox profile's `cookies.sqlite`.
///
/// Firefox keeps the file locked while it runs, so it is read from a private copy
/// (`CookieDatabaseCopy`, with its WAL, where the newest cookies are).
public enum FirefoxCookieReader {
    public static func read(_ path: String, scratch: String? = nil, makeID: () -> String) throws -> [Cookie] {
        try CookieDatabaseCopy.reading(path, scratch: scratch, browser: "Firefox") { copy in
            do {
                var config = Configuration()
                config.readonly = true
                let queue = try DatabaseQueue(path: copy, configuration: config)
                defer { try? queue.close() }
                return try queue.read { db in
                    guard try db.tableExists("moz_cookies") else {
                        throw StoreError.notADatabase(path: path, detail: "no moz_cookies table: not a Firefox cookies.sqlite")
                    }
                    // Cast in SQL: SQLite columns hold any type, and a damaged or foreign file must
                    // give skipped rows, not a failed decode. Rows without a name or host are skipped.
                    let sql = """
                        SELECT CAST(host AS TEXT) AS host, CAST(name AS TEXT) AS name, CAST(value AS TEXT) AS value,
                               CAST(path AS TEXT) AS path, CAST(expiry AS INTEGER) AS expiry, CAST(isSecure AS INTEGER) AS isSecure,
                               CAST(isHttpOnly AS INTEGER) AS isHttpOnly
                        FROM moz_cookies WHERE name IS NOT NULL AND host IS NOT NULL
                        """
                    return try Row.fetchAll(db, sql: sql).map { row in
                        let raw: Int64 = row["expiry"] ?? 0
                        // Firefox stored seconds, newer versions milliseconds: tell them apart by size.
                        let seconds = raw > 100_000_000_000 ? raw / 1000 : raw
                        return Cookie(id: makeID(), name: row["name"], value: Secret(row["value"] ?? ""), domain: row["host"],
                                      path: row["path"] ?? "/", expiresAt: seconds > 0 ? Instant(secondsSinceEpoch: seconds) : nil,
                                      secure: (row["isSecure"] as Int64? ?? 0) != 0, httpOnly: (row["isHttpOnly"] as Int64? ?? 0) != 0)
                    }
                }
            } catch let e as StoreError {
                throw e
            } catch let e as DatabaseError {
                throw StoreError.notADatabase(path: path, detail: e.message ?? "unreadable SQLite file")
            }
        }
    }
}
