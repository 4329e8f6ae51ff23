import Foundation
import GRDB
import AuthDeckCore

/// Reads cookies from a Firefox profile's `cookies.sqlite`.
///
/// Firefox keeps the file locked while it runs, so it is copied (with its WAL, where the
/// newest cookies are) into a private 0700 directory, opened read-only there, and the copy is
/// deleted as soon as it is read. The directory is made in `scratch` — the command passes its
/// runtime directory, a per-user tmpfs when there is one, so the copied cookies never reach a
/// disk — else in the temporary directory.
public enum FirefoxCookieReader {
    public static func read(_ path: String, scratch: String? = nil, makeID: () -> String) throws -> [Cookie] {
        let fm = FileManager.default
        let base = scratch.flatMap { fm.isWritableFile(atPath: $0) ? $0 : nil } ?? fm.temporaryDirectory.path
        let dir = base + "/authdeck-import-\(UUID().uuidString)"
        guard mkdir(dir, 0o700) == 0 else { throw StoreError.io(path: dir, detail: "cannot create a private directory") }
        defer { try? fm.removeItem(atPath: dir) }
        let copy = dir + "/cookies.sqlite"
        do {
            try fm.copyItem(atPath: path, toPath: copy)
            for suffix in ["-wal", "-shm"] where fm.fileExists(atPath: path + suffix) {
                try fm.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
        } catch {
            throw StoreError.io(path: path, detail: "cannot copy the Firefox cookie database: \((error as NSError).localizedDescription)")
        }
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
