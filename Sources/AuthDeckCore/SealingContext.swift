/// The associated data every sealed value is bound to: `authdeck/v1/<table>/<row>/<column>`.
///
/// A ciphertext moved to another row or column then fails to open. Kept here, apart from the
/// store, because the `authdeck` front opens access tokens and the data key too, and the two
/// binaries must name them identically.
public enum SealingContext {
    /// The data key as wrapped by a key source (`file`, `passphrase`, `keyring`).
    public static func dataKey(source: String) -> String { "authdeck/v1/meta/data_key/\(source)" }
    /// An access token is bound to its account, scopes and expiry as well as its row, so a
    /// row moved to another account or given other scopes or a later expiry fails to open.
    /// Each field is length-prefixed: ids and scopes may hold `/`. `scopes` and `requested`
    /// are the stored, space-joined texts (`requested` nil when NULL); `expiresAt` the stored seconds.
    public static func accessToken(_ id: String, account: String, scopes: String, requested: String?, expiresAt: Int64?) -> String {
        let expiry = expiresAt.map { String($0) } ?? "none"
        let asked = requested.map { "\($0.utf8.count):\($0)" } ?? "none"
        return "authdeck/v2/access_tokens/\(id.utf8.count):\(id)/\(account.utf8.count):\(account)/\(scopes.utf8.count):\(scopes)/\(asked)/\(expiry)/value"
    }
    /// The version-1 binding (the row alone), read only by the migration that re-seals old stores.
    public static func accessTokenV1(_ id: String) -> String { "authdeck/v1/access_tokens/\(id)/value" }
    public static func refreshToken(_ account: String, _ id: String) -> String { "authdeck/v1/refresh_tokens/\(account)/\(id)/value" }
    public static func cookie(_ id: String) -> String { "authdeck/v1/cookies/\(id)/value" }
    public static func extra(_ account: String, _ name: String) -> String { "authdeck/v1/extras/\(account)/\(name)" }
}
