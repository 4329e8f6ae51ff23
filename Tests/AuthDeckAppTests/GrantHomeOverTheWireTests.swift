import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// Issue 38, section 1: a refresh token leaves only for the place that issued it — the real
/// OIDC adapter and store over a network of the test's own, which records every request.
@Suite struct GrantHomeOverTheWireTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()

    static func discovery(_ issuer: String, token: String) -> String {
        #"{"issuer":"\#(issuer)","token_endpoint":"\#(token)","authorization_endpoint":"\#(issuer)/auth"}"#
    }
    static let answer = #"{"token_type":"Bearer","expires_in":3600,"access_token":"at-new","refresh_token":"rt-new"}"#

    /// A store with one OIDC account signed in at `https://a.example` (its subject says so),
    /// whose refresh token records `home`, and config naming `endpoints`.
    func setUp(_ http: ScriptedHTTPClient, home: GrantHome?, endpoints: String) throws -> (ProviderWiring, DeckConfig, StoredAccount) {
        let name = UUID().uuidString
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("\(name).db"), keyFilePath: dir.file("\(name).key")), clock: clock)
        let account = Account(id: "gl/u1", providerId: "gl", subject: "https://a.example|u1", username: "hanako", displayName: "",
                              realm: nil, createdAt: clock.now() - .days(1), lastSignInAt: clock.now() - .hours(2), lastUsedAt: nil, lastError: nil)
        let credentials = Credentials(accessTokens: [AccessToken(id: "at-old", value: Secret("at-old"), scopes: ["openid"],
                                                                 obtainedAt: clock.now() - .hours(2), expiresAt: clock.now() - .hours(1))],
                                      refreshToken: RefreshToken(id: "rt-old", value: Secret("RT-OLD-SECRET"), generation: 1,
                                                                 obtainedAt: clock.now() - .hours(2), home: home),
                                      idTokenClaims: ["sub": "u1"])
        try store.insert(StoredAccount(account: account, credentials: credentials))
        let config = try ConfigLoader.parse("""
            [[provider]]
            id = "gl"
            kind = "oidc"
            client_id = "cli"
            scopes = ["openid"]
            endpoints = \(endpoints)
            """, path: dir.file("config.toml"))
        let wiring = ProviderWiring(store: store, clock: clock, environment: [:], http: http)
        return (wiring, config, try #require(try store.account(id: account.id)))
    }

    func renew(_ wiring: ProviderWiring, _ config: DeckConfig, _ stored: StoredAccount) async -> AuthFailure? {
        do {
            _ = try await TokenAccess(wiring: wiring, config: config).token(stored, scopes: [])
            return nil
        } catch {
            return error as? AuthFailure
        }
    }

    /// Nothing carrying the refresh token left, and the account still holds it.
    func expectNothingSent(_ http: ScriptedHTTPClient, _ wiring: ProviderWiring, _ stored: StoredAccount) throws {
        let leaked = http.requests.filter { String(decoding: $0.body ?? [], as: UTF8.self).contains("RT-OLD-SECRET") }
        #expect(leaked.isEmpty, "sent to \(leaked.map(\.url))")
        let kept = try #require(try wiring.store.account(id: stored.account.id))
        #expect(kept.credentials.refreshToken?.value.exposedValue == "RT-OLD-SECRET")
    }

    /// The attack: an issuer on https whose discovery names a plain-http token endpoint got
    /// `grant_type=refresh_token&refresh_token=…` in clear on the next renewal.
    @Test func aPlainHttpTokenEndpointInDiscoveryGetsNoRefreshToken() async throws {
        let http = ScriptedHTTPClient()
        http.on("GET", "https://a.example/.well-known/openid-configuration") { _ in
            ScriptedHTTPClient.json(200, Self.discovery("https://a.example", token: "http://tok.evil.example/token"))
        }
        http.on("POST", "http://tok.evil.example/token") { _ in ScriptedHTTPClient.json(200, Self.answer) }
        for home in [nil, GrantHome.issued(by: "https://a.example", at: "https://a.example/token")] {
            let (wiring, config, stored) = try setUp(http, home: home, endpoints: #"{ issuer = "https://a.example" }"#)
            let failure = await renew(wiring, config, stored)
            #expect(failure?.code == "insecure_endpoint" || failure?.code == "grant_moved", "\(String(describing: failure))")
            #expect(failure?.remedy.contains("nothing was sent") == true || failure?.remedy.contains("sent nothing") == true)
            #expect(failure?.remedy.contains("RT-OLD-SECRET") == false)
            try expectNothingSent(http, wiring, stored)
            #expect(!http.requests.contains { $0.url.hasPrefix("http://tok.evil.example") })
        }
    }

    /// The attack: config.toml's issuer changed from A to B; the next renewal POSTed A's refresh
    /// token to B and only afterwards said "renewed … for a different user". Now the account
    /// needs a sign-in, the remedy names old and new issuer, and nothing reaches B — for a
    /// token that records its home and for one stored before homes were recorded (its subject
    /// names A), for a moved issuer and for a moved `endpoints.token` alone.
    @Test func aMovedIssuerGetsNoRefreshToken() async throws {
        let http = ScriptedHTTPClient()
        http.on("GET", "https://b.example/.well-known/openid-configuration") { _ in
            ScriptedHTTPClient.json(200, Self.discovery("https://b.example", token: "https://b.example/token"))
        }
        http.on("GET", "https://a.example/.well-known/openid-configuration") { _ in
            ScriptedHTTPClient.json(200, Self.discovery("https://a.example", token: "https://a.example/token"))
        }
        http.on("POST", "https://b.example/token") { _ in ScriptedHTTPClient.json(200, Self.answer) }
        let homeA = GrantHome.issued(by: "https://a.example", at: "https://a.example/token")
        for (home, endpoints) in [(homeA, #"{ issuer = "https://b.example" }"#), (nil, #"{ issuer = "https://b.example" }"#),
                                  (homeA, #"{ issuer = "https://a.example", token = "https://b.example/token" }"#)] {
            let (wiring, config, stored) = try setUp(http, home: home, endpoints: endpoints)
            let failure = await renew(wiring, config, stored)
            #expect(failure?.errorClass == .needsInteraction && failure?.code == "grant_moved", "\(String(describing: failure))")
            #expect(failure?.remedy.contains("https://a.example") == true && failure?.remedy.contains("https://b.example") == true,
                    "names old and new: \(String(describing: failure?.remedy))")
            try expectNothingSent(http, wiring, stored)
            #expect(!http.requests.contains { $0.url == "https://b.example/token" })
            let kept = try #require(try wiring.store.account(id: stored.account.id))
            #expect(kept.account.lastError?.errorClass == .needsInteraction, "the account needs a sign-in")
        }
    }

    /// A store holding `account` with `credentials`, and config `toml`, over `http`.
    func setUp(_ http: ScriptedHTTPClient, account: Account, credentials: Credentials, toml: String,
               environment: [String: String] = [:]) throws -> (ProviderWiring, DeckConfig, StoredAccount) {
        let name = UUID().uuidString
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("\(name).db"), keyFilePath: dir.file("\(name).key")), clock: clock)
        try store.insert(StoredAccount(account: account, credentials: credentials))
        let config = try ConfigLoader.parse(toml, path: dir.file("config.toml"))
        return (ProviderWiring(store: store, clock: clock, environment: environment, http: http), config, try #require(try store.account(id: account.id)))
    }

    /// The attack pass found these after the first fix: a client-credentials grant (no refresh
    /// token to carry a home) sent the client secret to a moved token endpoint, and Facebook sent
    /// the app secret and the user's token to a moved Graph API. Their homes are recorded at
    /// sign-in (`Credentials.grantHome`) and held like a refresh token's.
    @Test func aClientCredentialsGrantAndAFacebookTokenGoOnlyHome() async throws {
        let http = ScriptedHTTPClient()
        http.on("POST", "https://b.example/token") { _ in ScriptedHTTPClient.json(200, Self.answer) }
        http.on("GET", "https://graph.evil.example/v19.0/oauth/access_token") { _ in ScriptedHTTPClient.json(200, #"{"access_token":"x","expires_in":60}"#) }
        let expired = [AccessToken(id: "at-old", value: Secret("AT-OLD"), scopes: ["api"], obtainedAt: clock.now() - .hours(2), expiresAt: clock.now() - .hours(1))]
        let app = Account(id: "app/c", providerId: "app", subject: "client:cli", username: "cli", createdAt: clock.now() - .days(1))
        let appCredentials = Credentials(accessTokens: expired, extras: ["grant": Secret("client_credentials")])
            .recordingHome(GrantHome.issued(by: nil, at: "https://a.example/token"))
        let (w1, c1, s1) = try setUp(http, account: app, credentials: appCredentials, toml: """
            [[provider]]
            id = "app"
            kind = "oidc"
            client_id = "cli"
            client_secret_env = "APP_SECRET"
            scopes = ["api"]
            endpoints = { token = "https://b.example/token" }
            """, environment: ["APP_SECRET": "CS-APP-1"])
        let f1 = await renew(w1, c1, s1)
        #expect(f1?.code == "grant_moved" && f1?.remedy.contains("https://a.example") == true, "\(String(describing: f1))")
        let fb = Account(id: "fb/u", providerId: "fb", subject: "u1", username: "hanako", createdAt: clock.now() - .days(1))
        let fbCredentials = Credentials(accessTokens: [AccessToken(id: "at", value: Secret("AT-FB-1"), scopes: ["public_profile"],
                                                                   obtainedAt: clock.now() - .hours(2), expiresAt: clock.now() - .seconds(1))])
            .recordingHome(GrantHome(issuer: nil, origins: ["https://graph.facebook.com"]))
        let (w2, c2, s2) = try setUp(http, account: fb, credentials: fbCredentials, toml: """
            [[provider]]
            id = "fb"
            kind = "facebook"
            client_id = "1234"
            client_secret_env = "FB_SECRET"
            endpoints = { graph = "https://graph.evil.example" }
            """, environment: ["FB_SECRET": "FB-APP-SECRET"])
        let f2 = await renew(w2, c2, s2)
        #expect(f2?.code == "grant_moved", "\(String(describing: f2))")
        let leaked = http.requests.filter { r in
            let text = r.url + String(decoding: r.body ?? [], as: UTF8.self) + r.headers.map(\.value).joined()
            return ["CS-APP-1", "FB-APP-SECRET", "AT-FB-1"].contains { text.contains($0) } || text.contains("Basic ")
        }
        #expect(leaked.isEmpty, "sent: \(leaked.map(\.url))")
    }

    /// A renewal at the grant's home goes through, and the rotated token keeps that home in the
    /// store (sealed with it): a token stored before homes were recorded gets one this way.
    @Test func aRenewalAtHomeRecordsTheHomeWithTheRotatedToken() async throws {
        let http = ScriptedHTTPClient()
        http.on("GET", "https://a.example/.well-known/openid-configuration") { _ in
            ScriptedHTTPClient.json(200, Self.discovery("https://a.example", token: "https://a.example/token"))
        }
        http.on("POST", "https://a.example/token") { _ in ScriptedHTTPClient.json(200, Self.answer) }
        let (wiring, config, stored) = try setUp(http, home: nil, endpoints: #"{ issuer = "https://a.example" }"#)
        let token = try await TokenAccess(wiring: wiring, config: config).token(stored, scopes: [])
        #expect(token.value.exposedValue == "at-new")
        let kept = try #require(try wiring.store.account(id: stored.account.id))
        #expect(kept.credentials.refreshToken?.value.exposedValue == "rt-new")
        #expect(kept.credentials.refreshToken?.home == GrantHome(issuer: "https://a.example", origins: ["https://a.example"]))
    }
}
