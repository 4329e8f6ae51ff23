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
/// a store in which any account already carries a seal. Deleting the `meta` row therefore makes
/// the store refuse to open (an edit without the key can destroy, never redirect). A store
/// stripped of every secret can be re-sealed, but then there is nothing left to send anywhere.
extension DeckStore {
    static let metadataSealingKey = "metadata_sealing"
    static let metadataSealingVersion = "3"

    /// Whether the store's metadata is sealed (version 3).
    static func metadataSealed(_ db: Database) throws -> Bool {
        try metaText(db, metadataSealingKey) == metadataSealingVersion
    }

    /// Seals every account row, re-seals access tokens, refresh tokens, cookies and extras with
    /// the bindings of version 3, and drops the unsealed document cache (it is fetched again). A
    /// value that does not open with its earlier binding stops it, and nothing is changed.
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
                // A value opened with its earlier binding and sealed with its version-3 one; one
                // that does not open stops everything.
                func reseal(_ value: DatabaseValueConvertible?, from old: String, to new: String, _ what: @autoclosure () -> String) throws -> Data {
                    guard let sealed = value as? Data, let plain = try? box.open(Array(sealed), context: old) else { throw rejected(what()) }
                    return Data(try box.seal(plain, context: new))
                }
                var identity: [String: (provider: String, subject: String)] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT id, provider_id, subject, username, realm, quarantined_at FROM accounts") {
                    let id: String = row[0], provider: String = row[1], subject: String = row[2]
                    let quarantinedAt: Int64? = row[5]
                    identity[id] = (provider, subject)
                    let seal = try box.seal([], context: SealingContext.account(id, provider: provider, subject: subject,
                                                                               username: row[3], realm: row[4], quarantined: quarantinedAt != nil))
                    try db.execute(sql: "UPDATE accounts SET seal = ? WHERE id = ?", arguments: [Data(seal), id])
                }
                func owner(_ account: String) throws -> (provider: String, subject: String) {
                    guard let owner = identity[account] else { throw rejected("a credential of \(account), an account not in the store,") }
                    return owner
                }
                for row in try Row.fetchAll(db, sql: "SELECT id, account_id, sealed_value, scopes, expires_at, requested_scopes FROM access_tokens") {
                    let id: String = row[0], account: String = row[1], scopes: String = row[3], expires: Int64? = row[4], requested: String? = row[5]
                    let o = try owner(account)
                    let value = try reseal(row[2],
                                           from: SealingContext.accessTokenV2(id, account: account, scopes: scopes, requested: requested, expiresAt: expires),
                                           to: SealingContext.accessToken(id, account: account, scopes: scopes, requested: requested, expiresAt: expires,
                                                                          provider: o.provider, subject: o.subject),
                                           "an access token of \(account)")
                    try db.execute(sql: "UPDATE access_tokens SET sealed_value = ? WHERE id = ?", arguments: [value, id])
                }
                for row in try Row.fetchAll(db, sql: "SELECT account_id, id, sealed_value FROM refresh_tokens") {
                    let account: String = row[0], id: String = row[1]
                    let o = try owner(account)
                    let value = try reseal(row[2], from: SealingContext.refreshTokenV1(account, id),
                                           to: SealingContext.refreshToken(account, id, provider: o.provider, subject: o.subject),
                                           "the refresh token of \(account)")
                    try db.execute(sql: "UPDATE refresh_tokens SET sealed_value = ? WHERE account_id = ?", arguments: [value, account])
                }
                for row in try Row.fetchAll(db, sql: "SELECT id, account_id, name, sealed_value, domain, path, expires_at, secure, http_only FROM cookies") {
                    let id: String = row[0], account: String = row[1]
                    let value = try reseal(row[3], from: SealingContext.cookieV1(id),
                                           to: SealingContext.cookie(id, account: account, name: row[2], domain: row[4], path: row[5],
                                                                     expiresAt: row[6], secure: row[7], httpOnly: row[8]),
                                           "a cookie of \(account)")
                    try db.execute(sql: "UPDATE cookies SET sealed_value = ? WHERE id = ?", arguments: [value, id])
                }
                for row in try Row.fetchAll(db, sql: "SELECT account_id, name, sealed_value FROM extras") {
                    let account: String = row[0], name: String = row[1]
                    let o = try owner(account)
                    let value = try reseal(row[2], from: SealingContext.extraV1(account, name),
                                           to: SealingContext.extra(account, name, provider: o.provider, subject: o.subject),
                                           "the stored \(name) of \(account)")
                    try db.execute(sql: "UPDATE extras SET sealed_value = ? WHERE account_id = ? AND name = ?", arguments: [value, account, name])
                }
                try db.execute(sql: "DELETE FROM discovery_cache")
                try db.execute(sql: "REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [metadataSealingKey, metadataSealingVersion])
                return .commit
            }
        }
    }
}
