import Foundation
import GRDB
import AuthDeckCore

/// The one-time sealing of what decides where a secret goes, for whom and until when.
///
/// Before version 3 an account's provider, a cookie's domain, path and expiry and the cached
/// discovery documents were plain columns that anyone able to write the file could change
/// without the key, and the secrets followed them (a refresh token POSTed to a rewritten
/// `token_endpoint`). Sealing needs the data key, so, like the access tokens' re-sealing, it
/// runs when a store is opened, in one transaction, and `meta` records that it is done.
///
/// It cannot be replayed to launder an edit: it opens every access token, refresh token, cookie
/// and extra with its earlier binding, which a version-3 value never satisfies, and it refuses
/// a store in which any account already carries a seal. (A store stripped of every secret can
/// be re-sealed, but then there is nothing left to send anywhere.) Deleting the `meta` row therefore makes the
/// store refuse to open (an edit without the key can destroy, never redirect).
extension DeckStore {
    static let metadataSealingKey = "metadata_sealing"
    static let metadataSealingVersion = "3"

    /// Whether the store's metadata is sealed (version 3).
    static func metadataSealed(_ db: Database) throws -> Bool {
        try String.fetchOne(db, sql: "SELECT CAST(value AS TEXT) FROM meta WHERE key = ?", arguments: [metadataSealingKey])
            == metadataSealingVersion
    }

    /// Seals every account row, re-seals refresh tokens, cookies and extras with the bindings
    /// of version 3, and drops the unsealed document cache (it is fetched again). A value that
    /// does not open with its version-1 binding stops it, and nothing is changed.
    static func sealMetadata(_ pool: DatabasePool, box: AESSecretBox, storePath: String) throws {
        try pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                guard try !metadataSealed(db) else { return .commit }
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM accounts WHERE seal IS NOT NULL") ?? 0 > 0 {
                    throw StoreError.unreadable(path: storePath, detail: "its accounts are sealed but the record saying so is gone: "
                                                + "the store was edited without the key; restore it from a backup or move it away")
                }
                func rejected(_ what: String) -> StoreError {
                    .unreadable(path: storePath, detail: "\(what) does not open with the key: the store was edited without the key "
                                + "or is damaged; nothing was changed — restore it from a backup or move it away")
                }
                let identities = try Row.fetchAll(db, sql: "SELECT id, provider_id, subject, username, realm, quarantined_at FROM accounts")
                var identity: [String: (provider: String, subject: String)] = [:]
                for row in identities {
                    let id: String = row[0], provider: String = row[1], subject: String = row[2]
                    let quarantinedAt: Int64? = row[5]
                    identity[id] = (provider, subject)
                    let seal = try box.seal([], context: SealingContext.account(id, provider: provider, subject: subject,
                                                                               username: row[3], realm: row[4], quarantined: quarantinedAt != nil))
                    try db.execute(sql: "UPDATE accounts SET seal = ? WHERE id = ?", arguments: [Data(seal), id])
                }
                for row in try Row.fetchAll(db, sql: "SELECT id, account_id, sealed_value, scopes, expires_at, requested_scopes FROM access_tokens") {
                    let id: String = row[0], account: String = row[1]
                    let scopes: String = row[3], expires: Int64? = row[4], requested: String? = row[5]
                    guard let owner = identity[account],
                          let plain = try? box.open(Array(row[2] as Data), context: SealingContext.accessTokenV2(
                              id, account: account, scopes: scopes, requested: requested, expiresAt: expires)) else {
                        throw rejected("an access token of \(account)")
                    }
                    let sealed = try box.seal(plain, context: SealingContext.accessToken(id, account: account, scopes: scopes, requested: requested,
                                                                                         expiresAt: expires, provider: owner.provider, subject: owner.subject))
                    try db.execute(sql: "UPDATE access_tokens SET sealed_value = ? WHERE id = ?", arguments: [Data(sealed), id])
                }
                for row in try Row.fetchAll(db, sql: "SELECT account_id, id, sealed_value FROM refresh_tokens") {
                    let account: String = row[0], id: String = row[1]
                    guard let owner = identity[account],
                          let plain = try? box.open(Array(row[2] as Data), context: SealingContext.refreshTokenV1(account, id)) else {
                        throw rejected("the refresh token of \(account)")
                    }
                    let sealed = try box.seal(plain, context: SealingContext.refreshToken(account, id, provider: owner.provider,
                                                                                          subject: owner.subject))
                    try db.execute(sql: "UPDATE refresh_tokens SET sealed_value = ? WHERE account_id = ?", arguments: [Data(sealed), account])
                }
                for row in try Row.fetchAll(db, sql: "SELECT id, account_id, name, sealed_value, domain, path, expires_at, secure, http_only FROM cookies") {
                    let id: String = row[0], account: String = row[1]
                    guard let plain = try? box.open(Array(row[3] as Data), context: SealingContext.cookieV1(id)) else {
                        throw rejected("a cookie of \(account)")
                    }
                    let sealed = try box.seal(plain, context: SealingContext.cookie(id, account: account, name: row[2], domain: row[4], path: row[5],
                                                                                   expiresAt: row[6], secure: row[7], httpOnly: row[8]))
                    try db.execute(sql: "UPDATE cookies SET sealed_value = ? WHERE id = ?", arguments: [Data(sealed), id])
                }
                for row in try Row.fetchAll(db, sql: "SELECT account_id, name, sealed_value FROM extras") {
                    let account: String = row[0], name: String = row[1]
                    guard let owner = identity[account],
                          let plain = try? box.open(Array(row[2] as Data), context: SealingContext.extraV1(account, name)) else {
                        throw rejected("the stored \(name) of \(account)")
                    }
                    let sealed = try box.seal(plain, context: SealingContext.extra(account, name, provider: owner.provider, subject: owner.subject))
                    try db.execute(sql: "UPDATE extras SET sealed_value = ? WHERE account_id = ? AND name = ?", arguments: [Data(sealed), account, name])
                }
                try db.execute(sql: "DELETE FROM discovery_cache")
                try db.execute(sql: "REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [metadataSealingKey, metadataSealingVersion])
                return .commit
            }
        }
    }
}
