/// The associated data every sealed value is bound to: `authdeck/v1/<table>/<row>/<column>`.
///
/// A ciphertext moved to another row or column then fails to open. Kept here, apart from the
/// store, because the `authdeck` front opens access tokens and the data key too, and the two
/// binaries must name them identically.
public enum SealingContext {
    /// The data key as wrapped by a key source (`file`, `passphrase`, `keyring`).
    public static func dataKey(source: String) -> String { "authdeck/v1/meta/data_key/\(source)" }
    /// An access token is bound to its account, scopes and expiry as well as its row, so a
    /// row moved to another account or given other scopes or a later expiry fails to open —
    /// and to its account's provider and subject (version 3), so no token survives a one-time
    /// sealing replayed by a writer without the key. Each field is length-prefixed: ids and
    /// scopes may hold `/`. `scopes` and `requested` are the stored, space-joined texts
    /// (`requested` nil when NULL); `expiresAt` the stored seconds.
    public static func accessToken(_ id: String, account: String, scopes: String, requested: String?, expiresAt: Int64?,
                                   provider: String, subject: String) -> String {
        "authdeck/v3/" + accessTokenV2(id, account: account, scopes: scopes, requested: requested, expiresAt: expiresAt)
            .dropFirst("authdeck/v2/".count) + "/\(field(provider))/\(field(subject))"
    }

    /// The version-2 binding (account, scopes, expiry), read only by the one-time sealing.
    public static func accessTokenV2(_ id: String, account: String, scopes: String, requested: String?, expiresAt: Int64?) -> String {
        let expiry = expiresAt.map { String($0) } ?? "none"
        let asked = requested.map { "\($0.utf8.count):\($0)" } ?? "none"
        return "authdeck/v2/access_tokens/\(id.utf8.count):\(id)/\(account.utf8.count):\(account)/\(scopes.utf8.count):\(scopes)/\(asked)/\(expiry)/value"
    }
    /// The version-1 binding (the row alone), read only by the migration that re-seals old stores.
    public static func accessTokenV1(_ id: String) -> String { "authdeck/v1/access_tokens/\(id)/value" }
    /// The version-1 bindings of refresh tokens, cookies and extras (the row alone), read only by
    /// the one-time re-sealing of older stores (`DeckStore+MetadataSealing`).
    public static func refreshTokenV1(_ account: String, _ id: String) -> String { "authdeck/v1/refresh_tokens/\(account)/\(id)/value" }
    public static func cookieV1(_ id: String) -> String { "authdeck/v1/cookies/\(id)/value" }
    public static func extraV1(_ account: String, _ name: String) -> String { "authdeck/v1/extras/\(account)/\(name)" }

    /// A refresh token is bound to its account and to the account's provider and subject, which
    /// never change for an account: a token whose account row was moved to another provider
    /// does not open, so it is never sent to that provider's token endpoint.
    public static func refreshToken(_ account: String, _ id: String, provider: String, subject: String) -> String {
        "authdeck/v3/refresh_tokens/\(field(account))/\(field(id))/\(field(provider))/\(field(subject))/value"
    }

    /// A cookie is bound to everything that decides where it is sent and until when: its
    /// account, name, domain, path, expiry and flags. A cookie moved to `.evil.example`, given
    /// a year's expiry or moved to another account does not open.
    public static func cookie(_ id: String, account: String, name: String, domain: String, path: String,
                              expiresAt: Int64?, secure: Bool, httpOnly: Bool) -> String {
        let expiry = expiresAt.map { String($0) } ?? "none"
        return "authdeck/v3/cookies/\(field(id))/\(field(account))/\(field(name))/\(field(domain))/\(field(path))/\(expiry)/"
            + "\(secure ? 1 : 0)\(httpOnly ? 1 : 0)/value"
    }

    /// An extra (an OAM assertion, the Azure account that buys SharePoint cookies) is bound to
    /// its account and the account's provider and subject, as a refresh token is.
    public static func extra(_ account: String, _ name: String, provider: String, subject: String) -> String {
        "authdeck/v3/extras/\(field(account))/\(field(name))/\(field(provider))/\(field(subject))"
    }

    /// The seal of an account row: an empty value sealed with the columns that decide for whom
    /// its credentials are (provider, subject, username, realm) as associated data. Checked
    /// whenever the account's secrets are opened, by both binaries, so a row edited without
    /// the key (an account moved to another provider, two usernames swapped) is refused.
    /// Whether the account sits in the quarantine is bound too: which accounts an ACCOUNT
    /// argument can match must not be a writer's choice.
    public static func account(_ id: String, provider: String, subject: String, username: String, realm: String?,
                               quarantined: Bool) -> String {
        "authdeck/v3/accounts/\(field(id))/\(field(provider))/\(field(subject))/\(field(username))/\(realm.map(field) ?? "none")/"
            + (quarantined ? "quarantined" : "active") + "/seal"
    }

    /// The seal of the front's record (`fast_front.v1` in meta, `FrontRecord`): its margin,
    /// routes and tenant pins decide which account's cached token the front serves, until when.
    public static func frontRecord(_ encoded: String) -> String { "authdeck/v3/meta/fast_front/\(field(encoded))" }

    /// The seal of the status record (`fast_status.v1` in meta): its policy and providers decide
    /// which states the front's `status --short` reports.
    public static func statusFastPath(_ encoded: String) -> String { "authdeck/v3/meta/fast_status/\(field(encoded))" }

    /// A provider-level secret (a client certificate, the default account), bound to its
    /// provider and name. Here because the front reads the default account too.
    public static func providerSecret(_ provider: String, _ name: String) -> String { "authdeck/v1/provider_secrets/\(provider)/\(name)" }

    /// The seal of a cached discovery document or key set, whose sealed value is the body
    /// itself: bound to its URL and fetch time, so a cache rewritten without the key (another
    /// `token_endpoint`, a fresher `fetched_at`) is discarded and fetched again, never trusted.
    public static func document(url: String, fetchedAt: Int64) -> String {
        "authdeck/v3/discovery_cache/\(field(url))/\(fetchedAt)/body"
    }

    /// A field as `<UTF-8 length>:<text>`, so no choice of `/` inside ids, names or paths can
    /// make two different rows read as one context.
    static func field(_ text: String) -> String { "\(text.utf8.count):\(text)" }
}
