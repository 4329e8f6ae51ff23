import Testing
import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// Every adapter that spends a refresh token hands the renewal's `RotationHearing` to the
/// token endpoint: the real adapters over a network of the test's own. One that dropped it
/// would leave the renewal deaf, and a process killed as a one-use provider's answer is read
/// would lose the account (docs/reliability.md).
@Suite struct RotationHearingOverTheWireTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()
    static let answer = #"{"token_type":"Bearer","expires_in":3600,"access_token":"at-new","refresh_token":"rt-new"}"#

    /// What each kind's config and token URL are, and its account's subject.
    static let kinds: [(kind: String, config: String, token: String, subject: String)] = [
        ("azuread", """
            client_id = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
            endpoints = { authority = "https://login.test" }
            options = { tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47" }
            """, "https://login.test/72f988bf-86f1-41af-91ab-2d7cd011db47/oauth2/v2.0/token", "oid.72f988bf-86f1-41af-91ab-2d7cd011db47"),
        ("oidc", """
            client_id = "cli"
            scopes = ["openid"]
            endpoints = { issuer = "https://a.test" }
            """, "https://a.test/token", "https://a.test|u1"),
        ("oam", """
            client_id = "oam-client"
            endpoints = { base = "https://oam.test" }
            options = { preset = "12c" }
            """, "https://oam.test/oauth2/rest/token", "oam|u1"),
    ]

    @Test(arguments: 0..<3) func theRotatedRefreshTokenIsHeardAsTheAnswerIsRead(_ index: Int) async throws {
        let kind = Self.kinds[index]
        let http = ScriptedHTTPClient()
        http.on("GET", "https://a.test/.well-known/openid-configuration") { _ in
            ScriptedHTTPClient.json(200, #"{"issuer":"https://a.test","token_endpoint":"https://a.test/token","authorization_endpoint":"https://a.test/auth"}"#)
        }
        http.on("POST", kind.token) { _ in ScriptedHTTPClient.json(200, Self.answer) }
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let account = Account(id: "p/u1", providerId: "p", subject: kind.subject, username: "hanako", displayName: "", realm: nil,
                              createdAt: clock.now() - .days(1), lastSignInAt: clock.now() - .hours(2), lastUsedAt: nil, lastError: nil)
        let credentials = Credentials(accessTokens: [], refreshToken: RefreshToken(id: "rt-old", value: Secret("rt-old"), generation: 1,
                                                                                   obtainedAt: clock.now() - .hours(2)))
        try store.insert(StoredAccount(account: account, credentials: credentials))
        let config = try ConfigLoader.parse("[[provider]]\nid = \"p\"\nkind = \"\(kind.kind)\"\n" + kind.config, path: dir.file("config.toml"))
        let wiring = ProviderWiring(store: store, clock: clock, environment: [:], http: http)
        let adapter = try wiring.adapter(forProvider: "p", config: config)
        let heard = Mutex<[String]>([])
        let stored = try #require(try store.account(id: account.id))
        _ = try await adapter.renew(stored, scopes: [], hearing: RotationHearing { value in heard.withLock { $0.append(value.exposedValue) } })
        #expect(http.requests.contains { $0.url == kind.token }, "\(http.requests.map(\.url))")
        #expect(heard.withLock { $0 } == ["rt-new"], "\(kind.kind) did not hand the hearing to its token endpoint")
    }
}
