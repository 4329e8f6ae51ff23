import AuthDeckCore

/// A deck with an account in every state and one for every prune reason, relative to `now`.
///
/// Used by store, CLI and (later) UI tests, so every layer is checked against the same
/// accounts. Every secret it creates is listed in `secrets`, so tests can prove that none
/// of them reaches a file, log or output where it must not.
public struct DeckFixture: Sendable {
    public let now: Instant
    public private(set) var accounts: [StoredAccount] = []
    /// The state each account must derive to, keyed by account id.
    public private(set) var expectedStates: [String: String] = [:]
    /// Prune reason keys of the accounts that must be candidates, keyed by account id.
    public private(set) var expectedPrune: [String: String] = [:]
    public private(set) var secrets: [String] = []

    /// Tenant pinned by the `prod` provider, and another tenant for the wrong-tenant account.
    public static let prodTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    public static let devTenant = "0d2b2a6e-3c1f-4a43-9b1e-5a6c7d8e9f00"

    /// A Facebook provider `meta` that signs in by device code at `https://graph.test`, which
    /// only a scripted network answers; appended to `configTOML` by sign-in tests.
    public static let scriptedFacebookTOML = """

        [[provider]]
        id = "meta"
        kind = "facebook"
        client_id = "1234567890"
        flow = "device"
        endpoints = { graph = "https://graph.test" }
        options = { client_token = "client-token-Zq8" }
        """

    /// The providers the fixture's accounts belong to, as config.toml text. The Azure AD
    /// providers point at a closed local port, so renewals fail fast and offline.
    public static let configTOML = """
        expiring_soon = "10m"
        clock_skew = "60s"

        [prune]
        sign_in_grace = "1h"
        rejected_grace = "14d"
        unused_after = "90d"

        [[provider]]
        id = "work"
        kind = "azuread"
        client_id = "11111111-2222-3333-4444-555555555555"
        scopes = ["openid", "offline_access", "User.Read"]
        flow = "device"
        endpoints = { authority = "http://127.0.0.1:9" }
        options = { tenant = "common" }

        [[provider]]
        id = "prod"
        kind = "azuread"
        client_id = "11111111-2222-3333-4444-555555555555"
        scopes = ["openid", "offline_access"]
        endpoints = { authority = "http://127.0.0.1:9" }
        options = { tenant = "\(prodTenant)" }

        [[provider]]
        id = "sp"
        kind = "sharepoint"
        options = { site = "contoso.sharepoint.com", azure_provider = "work" }

        [[provider]]
        id = "fb"
        kind = "facebook"
        client_id = "1234567890"
        scopes = ["public_profile", "email"]

        [[provider]]
        id = "gl"
        kind = "oidc"
        client_id = "authdeck"
        endpoints = { issuer = "http://127.0.0.1:4593/api/oidc" }
        """

    public init(now: Instant) {
        self.now = now
        build()
    }

    /// A secret value that is unique, recognisable in a hex dump, and recorded.
    mutating func secret(_ label: String) -> Secret {
        let value = "fixture-secret-\(label)-\(secrets.count)-Zq8"
        secrets.append(value)
        return Secret(value)
    }

    mutating func token(_ label: String, expiresIn: TimeSpan?, scopes: [String] = ["openid", "User.Read"]) -> AccessToken {
        AccessToken(id: "at-\(label)", value: secret("at-\(label)"), scopes: scopes, obtainedAt: now - .hours(1),
                    expiresAt: expiresIn.map { now + $0 })
    }

    mutating func refresh(_ label: String) -> RefreshToken {
        RefreshToken(id: "rt-\(label)", value: secret("rt-\(label)"), generation: 3, obtainedAt: now - .hours(1))
    }

    mutating func add(_ id: String, provider: String = "work", subject: String? = nil, username: String,
                      name: String = "", realm: String? = nil, created: TimeSpan = .days(30), signedIn: TimeSpan? = .hours(1),
                      used: TimeSpan? = nil, error: AccountError? = nil, credentials: Credentials,
                      state: String, prune: String? = nil) {
        let account = Account(id: id, providerId: provider, subject: subject ?? "subject-\(id)", username: username,
                              displayName: name, realm: realm, createdAt: now - created,
                              lastSignInAt: signedIn.map { now - $0 }, lastUsedAt: used.map { now - $0 }, lastError: error)
        accounts.append(StoredAccount(account: account, credentials: credentials))
        expectedStates[id] = state
        if let prune { expectedPrune[id] = prune }
    }

    mutating func build() {
        add("work/0000a001", username: "taro@contoso.com", name: "本番 太郎", realm: Self.prodTenant,
            credentials: Credentials(accessTokens: [token("valid", expiresIn: .hours(2))], refreshToken: refresh("valid"),
                                     idTokenClaims: ["tid": Self.prodTenant, "preferred_username": "taro@contoso.com"]),
            state: "signed_in")
        add("work/0000a002", username: "jiro@contoso.com", name: "手須戸 二郎",
            credentials: Credentials(accessTokens: [token("soon", expiresIn: .minutes(6))], refreshToken: refresh("soon")),
            state: "expiring_soon")
        add("work/0000a003", username: "hanako@contoso.com",
            credentials: Credentials(accessTokens: [token("expired", expiresIn: .hours(-1))], refreshToken: refresh("expired")),
            state: "expired")
        add("fb/0000a004", provider: "fb", username: "fb-user-1", name: "Facebook User",
            credentials: Credentials(accessTokens: [token("fb", expiresIn: .hours(-3), scopes: ["public_profile"])]),
            state: "expired")
        add("work/0000a005", username: "mfa@contoso.com",
            error: AccountError(errorClass: .needsInteraction, code: "AADSTS50076",
                                remedy: "MFA required — sign in again in the browser", at: now - .days(1)),
            credentials: Credentials(accessTokens: [token("mfa", expiresIn: .hours(-2))], refreshToken: refresh("mfa")),
            state: "needs_sign_in")
        add("gl/0000a006", provider: "gl", username: "pending@example.jp", created: .minutes(10), signedIn: nil,
            credentials: .empty, state: "failed")
        add("gl/0000a007", provider: "gl", username: "abandoned@example.jp", created: .days(2), signedIn: nil,
            credentials: .empty, state: "stale", prune: "never-completed")
        add("prod/0000a008", provider: "prod", username: "taro@dev.contoso.com", realm: Self.devTenant,
            credentials: Credentials(accessTokens: [token("wrongtenant", expiresIn: .hours(1))], refreshToken: refresh("wrongtenant")),
            state: "stale", prune: "wrong-tenant")
        add("work/0000a009", subject: "subject-work/0000a001", username: "taro@contoso.com", created: .days(40), signedIn: .days(20),
            credentials: Credentials(accessTokens: [token("dup", expiresIn: .days(-19))]),
            state: "stale", prune: "duplicate")
        add("work/0000a010", username: "revoked@contoso.com", signedIn: .days(25),
            error: AccountError(errorClass: .needsInteraction, code: "AADSTS70008",
                                remedy: "the grant expired or was revoked — sign in again", at: now - .days(20)),
            credentials: Credentials(refreshToken: refresh("revoked")),
            state: "stale", prune: "rejected")
        add("work/0000a011", username: "flaky@contoso.com", signedIn: .days(2),
            error: AccountError(errorClass: .transient, code: "network", remedy: "network unreachable; will retry",
                                at: now - .days(30)),
            credentials: Credentials(accessTokens: [token("flaky", expiresIn: .hours(-5))], refreshToken: refresh("flaky")),
            state: "expired")
        add("sp/0000a012", provider: "sp", username: "taro@contoso.com", name: "Intranet", realm: "contoso.sharepoint.com",
            credentials: Credentials(cookies: [
                Cookie(id: "ck-fedauth", name: "FedAuth", value: secret("fedauth"), domain: "contoso.sharepoint.com",
                       expiresAt: now + .hours(5)),
                Cookie(id: "ck-rtfa", name: "rtFa", value: secret("rtfa"), domain: ".sharepoint.com", expiresAt: now + .hours(8)),
            ]),
            state: "signed_in")
        add("work/0000a013", username: "old@contoso.com", created: .days(200), signedIn: .days(120), used: .days(100),
            credentials: Credentials(accessTokens: [token("old", expiresIn: .days(-119))]),
            state: "stale", prune: "unused")
        add("legacy/0000a014", provider: "legacy", username: "gone@example.org",
            credentials: Credentials(accessTokens: [token("legacy", expiresIn: .hours(1))]),
            state: "stale", prune: "provider-removed")
    }

    /// The valid token of the signed-in account, for `authdeck token` checks.
    public var validTokenValue: String { accounts[0].credentials.accessTokens[0].value.exposedValue }
}
