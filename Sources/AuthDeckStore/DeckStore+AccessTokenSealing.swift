import Foundation
import GRDB
import AuthDeckCore

/// The one-time move of access tokens to the sealing that binds account, scopes and expiry.
///
/// Version 1 bound an access token to its row only, so a row moved to another account (or
/// given a later expiry) still opened. Re-sealing needs the data key, so it runs when a store
/// is opened rather than as a schema migration, all rows in one transaction, and `meta`
/// records that it is done.
extension DeckStore {
    static let accessTokenSealingKey = "access_token_sealing"
    static let accessTokenSealingVersion = "2"

    /// Whether the store's access tokens are sealed with the version-2 binding.
    static func accessTokensResealed(_ db: Database) throws -> Bool {
        try metaText(db, accessTokenSealingKey) == accessTokenSealingVersion
    }

    /// A meta row's value as text, nil when there is none: the one-time steps' records.
    static func metaText(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT CAST(value AS TEXT) FROM meta WHERE key = ?", arguments: [key])
    }

    /// Re-seals every version-1 access token with the version-2 binding; a value that does not
    /// open with its version-1 binding stops it (nothing is changed then).
    static func resealAccessTokens(_ pool: DatabasePool, box: AESSecretBox) throws {
        try pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                guard try !accessTokensResealed(db) else { return .commit }
                let rows = try Row.fetchAll(db, sql: "SELECT id, account_id, sealed_value, scopes, expires_at, requested_scopes FROM access_tokens")
                for row in rows {
                    let id: String = row[0]
                    let account: String = row[1]
                    let sealed: [UInt8] = Array(row[2] as Data)
                    let scopes: String = row[3]
                    let expires: Int64? = row[4]
                    let requested: String? = row[5]
                    let plain = try box.open(sealed, context: SealingContext.accessTokenV1(id))
                    let resealed = try box.seal(plain, context: SealingContext.accessTokenV2(id, account: account, scopes: scopes,
                                                                                           requested: requested, expiresAt: expires))
                    try db.execute(sql: "UPDATE access_tokens SET sealed_value = ? WHERE id = ?", arguments: [Data(resealed), id])
                }
                try db.execute(sql: "REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [accessTokenSealingKey, accessTokenSealingVersion])
                return .commit
            }
        }
    }
}
