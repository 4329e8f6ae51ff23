import Foundation
import GRDB
import Crypto
import AuthDeckCore

/// Reads one site's cookies from a Chromium-family profile's `Cookies` database (Chromium,
/// Chrome, Edge), decrypting their values.
///
/// Only rows whose host_key the site is sent are asked for, so no other site's cookie is read
/// or decrypted. A value that cannot be decrypted is reported by name with the reason and left
/// out — never imported as bytes that only look like a cookie.
public enum ChromiumCookieReader {
    /// A cookie of the site whose value could not be read, and why.
    public struct Unreadable: Equatable, Sendable {
        public let name: String
        public let reason: String

        public init(name: String, reason: String) {
            self.name = name
            self.reason = reason
        }
    }

    /// What was read: the decrypted cookies and those that could not be.
    public struct Outcome: Sendable {
        public var cookies: [Cookie] = []
        public var unreadable: [Unreadable] = []
    }

    /// Microseconds between Windows' epoch (1601), which Chromium counts from, and Unix's.
    static let epochOffset: Int64 = 11_644_473_600

    /// Reads `path` (a private copy is made first). `browser` names the browser in messages;
    /// `keyringPassword` is asked only when a `v11` value needs it, and returns the browser's
    /// "Safe Storage" password or throws a sentence saying why there is none.
    public static func read(_ path: String, site: SiteHost, browser: String, scratch: String? = nil,
                            keyringPassword: () throws -> String, makeID: () -> String) throws -> Outcome {
        try CookieDatabaseCopy.reading(path, scratch: scratch, browser: browser) { copy in
            do {
                var config = Configuration()
                config.readonly = true
                let queue = try DatabaseQueue(path: copy, configuration: config)
                defer { try? queue.close() }
                let (rows, version) = try queue.read { db -> ([Row], Int) in
                    guard try db.tableExists("cookies") else {
                        throw StoreError.notADatabase(path: path, detail: "no cookies table: not a \(browser) Cookies database")
                    }
                    // The meta table's version says whether values carry the host's hash (24+).
                    let version = try db.tableExists("meta") ? try Int.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'version'") ?? 0 : 0
                    let marks = site.cookieDomains.map { _ in "?" }.joined(separator: ", ")
                    let sql = """
                        SELECT CAST(host_key AS TEXT) AS host_key, CAST(name AS TEXT) AS name, CAST(value AS TEXT) AS value,
                               encrypted_value, CAST(path AS TEXT) AS path, CAST(expires_utc AS INTEGER) AS expires_utc,
                               CAST(is_secure AS INTEGER) AS is_secure, CAST(is_httponly AS INTEGER) AS is_httponly
                        FROM cookies WHERE name IS NOT NULL AND lower(host_key) IN (\(marks))
                        """
                    return (try Row.fetchAll(db, sql: sql, arguments: StatementArguments(site.cookieDomains)), version)
                }
                return try decode(rows, hashPrefix: version >= 24, keyringPassword: keyringPassword, makeID: makeID)
            } catch let e as StoreError {
                throw e
            } catch let e as DatabaseError {
                throw StoreError.notADatabase(path: path, detail: e.message ?? "unreadable SQLite file")
            }
        }
    }

    static func decode(_ rows: [Row], hashPrefix: Bool, keyringPassword: () throws -> String, makeID: () -> String) throws -> Outcome {
        var outcome = Outcome()
        let v10 = try ChromiumCookieCipher.key(password: ChromiumCookieCipher.v10Password)
        var v11: Result<SymmetricKey, ChromiumCookieCipher.Failure>?
        for row in rows {
            let name: String = row["name"], host: String = row["host_key"] ?? ""
            let blob: Data = row["encrypted_value"] ?? Data()
            let value: String
            do throws(ChromiumCookieCipher.Failure) {
                switch ChromiumCookieCipher.scheme(of: blob) {
                case nil:
                    value = row["value"] ?? ""
                case "v10"?:
                    value = try ChromiumCookieCipher.decrypt(blob, key: v10, hostKey: host, hashPrefix: hashPrefix)
                case "v11"?:
                    if v11 == nil {
                        do { v11 = .success(try ChromiumCookieCipher.key(password: try keyringPassword())) } catch {
                            v11 = .failure(.noKey("\(error)"))
                        }
                    }
                    value = try ChromiumCookieCipher.decrypt(blob, key: try v11!.get(), hostKey: host, hashPrefix: hashPrefix)
                case let other?:
                    throw .unknownScheme(other)
                }
            } catch {
                outcome.unreadable.append(Unreadable(name: name, reason: sentence(error)))
                continue
            }
            let micros: Int64 = row["expires_utc"] ?? 0
            let seconds = micros > 0 ? micros / 1_000_000 - epochOffset : 0
            outcome.cookies.append(Cookie(id: makeID(), name: name, value: Secret(value), domain: host, path: row["path"] ?? "/",
                                          expiresAt: seconds > 0 ? Instant(secondsSinceEpoch: seconds) : nil,
                                          secure: (row["is_secure"] as Int64? ?? 0) != 0, httpOnly: (row["is_httponly"] as Int64? ?? 0) != 0))
        }
        return outcome
    }

    static func sentence(_ failure: ChromiumCookieCipher.Failure) -> String {
        switch failure {
        case .noKey(let why): return "encrypted with the keyring's key (v11), which could not be read: \(why)"
        case .wrongKey: return "does not decrypt with the browser's key (wrong key, or the value is damaged)"
        case .unknownScheme(let scheme): return "encrypted in a way authdeck does not read (\(TerminalText.inert(scheme)))"
        }
    }
}
