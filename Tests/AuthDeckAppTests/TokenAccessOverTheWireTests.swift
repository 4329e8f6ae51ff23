import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// `TokenAccess` with the real Azure AD adapter over a network of the test's own: what goes
/// on the wire for a renewal, what is kept after it, and that a 503 or a refusal loses nothing.
@Suite struct TokenAccessOverTheWireTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()
    static let tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    static let tokenURL = "https://login.test/\(tenant)/oauth2/v2.0/token"

    /// A real store holding one Azure AD account whose access token has expired, and the
    /// wiring of the real adapters over `http`.
    func setUp(_ http: ScriptedHTTPClient) throws -> (ProviderWiring, DeckConfig, StoredAccount) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let account = Account(id: "work/a0", providerId: "work", subject: "oid.\(Self.tenant)", username: "taro@contoso.com", displayName: "",
                              realm: Self.tenant, createdAt: clock.now() - .days(1), lastSignInAt: clock.now() - .hours(2), lastUsedAt: nil, lastError: nil)
        let credentials = Credentials(accessTokens: [AccessToken(id: "at-old", value: Secret("at-old"), scopes: ["https://graph.microsoft.com/.default"],
                                                                 obtainedAt: clock.now() - .hours(2), expiresAt: clock.now() - .hours(1))],
                                      refreshToken: RefreshToken(id: "rt-old", value: Secret("rt-old"), generation: 1, obtainedAt: clock.now() - .hours(2)))
        try store.insert(StoredAccount(account: account, credentials: credentials))
        let config = try ConfigLoader.parse("""
            [[provider]]
            id = "work"
            kind = "azuread"
            client_id = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
            endpoints = { authority = "https://login.test" }
            options = { tenant = "\(Self.tenant)" }
            """, path: dir.file("config.toml"))
        let wiring = ProviderWiring(store: store, clock: clock, environment: [:], http: http)
        return (wiring, config, try #require(try store.account(id: account.id)))
    }

    @Test func anExpiredTokenIsRenewedWithTheRefreshGrantAndTheRotatedTokenKept() async throws {
        let http = ScriptedHTTPClient()
        http.on("POST", Self.tokenURL) { _ in
            ScriptedHTTPClient.json(200, #"{"token_type":"Bearer","scope":"https://graph.microsoft.com/.default","expires_in":3600,"access_token":"at-new","refresh_token":"rt-new"}"#)
        }
        let (wiring, config, stored) = try setUp(http)
        let token = try await TokenAccess(wiring: wiring, config: config).token(stored, scopes: [])
        #expect(token.value.exposedValue == "at-new")
        let sent = try #require(http.requests.last)
        let form = ScriptedHTTPClient.form(sent)
        #expect(form["grant_type"] == "refresh_token" && form["refresh_token"] == "rt-old", "\(form.keys.sorted())")
        #expect(form["client_id"] == "04b07795-8ddb-461a-bbee-02f9e1bf7b46")
        let kept = try #require(try wiring.store.account(id: stored.account.id))
        #expect(kept.credentials.refreshToken?.value.exposedValue == "rt-new")
        #expect(kept.credentials.refreshToken?.generation == 2)
        #expect(kept.credentials.accessTokens.contains { $0.value.exposedValue == "at-new" && $0.expiresAt == clock.now() + .hours(1) })
    }

    @Test func aProviderThatIsDownChangesNothing() async throws {
        let http = ScriptedHTTPClient()
        http.on("POST", Self.tokenURL) { _ in ScriptedHTTPClient.json(503, #"{"error":"temporarily_unavailable"}"#) }
        let (wiring, config, stored) = try setUp(http)
        do {
            _ = try await TokenAccess(wiring: wiring, config: config).token(stored, scopes: [])
            Issue.record("a 503 gave a token")
        } catch let f as AuthFailure {
            #expect(f.errorClass == .transient && f.exitStatus == ExitStatus.transient, "\(f)")
        }
        let kept = try #require(try wiring.store.account(id: stored.account.id))
        #expect(kept.credentials.refreshToken?.value.exposedValue == "rt-old")
        #expect(kept.account.lastError == nil, "a 503 is not the account's error")
    }

    @Test func aRevokedGrantNeedsASignInAndKeepsTheRefreshToken() async throws {
        let http = ScriptedHTTPClient()
        http.on("POST", Self.tokenURL) { _ in
            ScriptedHTTPClient.json(400, #"{"error":"invalid_grant","error_description":"AADSTS70008: The refresh token has expired.","error_codes":[70008]}"#)
        }
        let (wiring, config, stored) = try setUp(http)
        do {
            _ = try await TokenAccess(wiring: wiring, config: config).token(stored, scopes: [])
            Issue.record("a revoked grant gave a token")
        } catch let f as AuthFailure {
            #expect(f.errorClass == .needsInteraction && f.exitStatus == ExitStatus.needsSignIn, "\(f)")
        }
        let kept = try #require(try wiring.store.account(id: stored.account.id))
        #expect(kept.credentials.refreshToken?.value.exposedValue == "rt-old", "deleted only by a sign-out or prune")
        #expect(kept.account.lastError?.errorClass == .needsInteraction)
    }
}
