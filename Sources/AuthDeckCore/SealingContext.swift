/// The associated data every sealed value is bound to: `authdeck/v1/<table>/<row>/<column>`.
///
/// A ciphertext moved to another row or column then fails to open. Kept here, apart from the
/// store, because the `authdeck` front opens access tokens and the data key too, and the two
/// binaries must name them identically.
public enum SealingContext {
    /// The data key as wrapped by a key source (`file`, `passphrase`, `keyring`).
    public static func dataKey(source: String) -> String { "authdeck/v1/meta/data_key/\(source)" }
    public static func accessToken(_ id: String) -> String { "authdeck/v1/access_tokens/\(id)/value" }
    public static func refreshToken(_ account: String, _ id: String) -> String { "authdeck/v1/refresh_tokens/\(account)/\(id)/value" }
    public static func cookie(_ id: String) -> String { "authdeck/v1/cookies/\(id)/value" }
    public static func extra(_ account: String, _ name: String) -> String { "authdeck/v1/extras/\(account)/\(name)" }
}
