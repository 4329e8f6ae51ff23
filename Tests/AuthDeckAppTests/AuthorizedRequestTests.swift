import Testing
import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckHTTP
import AuthDeckApp
import AuthDeckTestSupport

/// `AuthorizedRequest` with the real Azure AD adapter over a scripted network and a real store
/// holding `DeckFixture`'s accounts: the token goes to the origin named and nowhere else, a
/// server's Bearer challenge renews once and sends again, a network failure is classed.
struct AuthorizedRequestTests {
    let dir = TempDirectory()
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let fixture: DeckFixture
    static let tokenURL = "https://login.test/common/oauth2/v2.0/token"

    init() { fixture = DeckFixture(now: clock.now()) }

    /// What a request's body stream received.
    final class Body: Sendable {
        private let bytes = Mutex([UInt8]())
        var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }
        func write(_ chunk: UnsafeRawBufferPointer) -> Bool { bytes.withLock { $0 += Array(chunk) }; return true }
    }

    func request(_ http: ScriptedHTTPClient, account: String = "work/0000a001") throws -> AuthorizedRequest {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        for stored in fixture.accounts { try store.insert(stored) }
        let config = try ConfigLoader.parse(DeckFixture.configTOML.replacingOccurrences(of: "http://127.0.0.1:9", with: "https://login.test"),
                                            path: dir.file("config.toml"))
        let wiring = ProviderWiring(store: store, clock: clock, environment: [:], http: http)
        return try AuthorizedRequest(for: try #require(try store.account(id: account)), wiring: wiring, config: config, scopes: [])
    }

    func bearer(_ request: HTTPRequest) -> String? {
        request.headers.first { $0.name == "Authorization" }?.value
    }

    @Test func theTokenGoesToTheOriginNamedAndNotPastARedirectThatLeavesIt() async throws {
        let http = ScriptedHTTPClient()
        http.on("GET", "https://api.test/files") { _ in HTTPResponse(status: 302, headers: [HTTPHeader("Location", "https://cdn.test/blob")], body: []) }
        http.on("GET", "https://cdn.test/blob") { _ in HTTPResponse(status: 200, headers: [], body: Array("the blob".utf8)) }
        let body = Body()
        let answer = try await request(http).send(method: "GET", url: "https://api.test/files", headers: [("Accept", "*/*")], body: nil,
                                                  timeout: 30, accountId: "work/0000a001", output: body.write)
        #expect(answer.status == 200 && answer.hops == ["https://api.test/files", "https://cdn.test/blob"] && answer.leftOrigin && !answer.renewed)
        #expect(body.text == "the blob")
        #expect(http.requests.map(bearer) == ["Bearer " + fixture.validTokenValue, nil], "the credential stays at its origin")
        #expect(http.requests.first?.headers.contains { $0.name == "Accept" && $0.value == "*/*" } == true)
    }

    /// A Bearer challenge on a token that looked valid: renewed (the refresh grant), sent again
    /// with the new token; the challenged answer's body is not the caller's.
    @Test func aChallengeRenewsOnceAndSendsAgain() async throws {
        let http = ScriptedHTTPClient()
        http.on("GET", "https://api.test/me") { _ in
            HTTPResponse(status: 401, headers: [HTTPHeader("WWW-Authenticate", #"Bearer error="invalid_token""#)], body: Array("denied".utf8))
        }
        http.on("GET", "https://api.test/me") { _ in HTTPResponse(status: 200, headers: [], body: Array("me".utf8)) }
        http.on("POST", Self.tokenURL) { _ in
            ScriptedHTTPClient.json(200, #"{"token_type":"Bearer","scope":"openid User.Read","expires_in":3600,"access_token":"at-fresh-Zq8","refresh_token":"rt-fresh-Zq8"}"#)
        }
        let body = Body()
        let answer = try await request(http).send(method: "GET", url: "https://api.test/me", headers: [], body: nil, timeout: 30,
                                                  accountId: "work/0000a001", output: body.write)
        #expect(answer.status == 200 && answer.renewed && body.text == "me", "\(body.text)")
        #expect(http.requests.map(\.url) == ["https://api.test/me", Self.tokenURL, "https://api.test/me"])
        #expect(bearer(http.requests[2]) == "Bearer at-fresh-Zq8")
    }

    /// Nothing answers: a transient failure (exit 4), and the account's token is kept.
    @Test func aNetworkFailureIsTransient() async throws {
        let http = ScriptedHTTPClient()
        let failure = await #expect(throws: AuthFailure.self) {
            _ = try await request(http).send(method: "GET", url: "https://api.test/me", headers: [], body: nil, timeout: 30,
                                             accountId: "work/0000a001", output: Body().write)
        }
        #expect(failure?.errorClass == .transient && failure?.exitStatus == ExitStatus.transient, "\(String(describing: failure))")
        #expect(http.requests.map(\.url) == ["https://api.test/me"])
    }
}
