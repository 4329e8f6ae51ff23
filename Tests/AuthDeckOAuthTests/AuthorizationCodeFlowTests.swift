import Testing
import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth
import AuthDeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The loopback redirect: PKCE parameters out, state and iss checked on the way back.
@Suite struct AuthorizationCodeFlowTests {
    /// Plays the browser: when the flow shows its URL, requests the loopback redirect with
    /// parameters derived from it.
    struct BrowserPresenter: SignInPresenter {
        let redirectWith: @Sendable ([String: String]) -> [(String, String)]
        func present(_ prompt: SignInPrompt) async {
            guard case .browser(let url, _) = prompt, let q = url.split(separator: "?").last,
                  let params = FormEncoding.decode(String(q)) else { return }
            let p = Dictionary(params, uniquingKeysWith: { a, _ in a })
            let target = p["redirect_uri"]! + "?" + FormEncoding.encode(redirectWith(p))
            Thread.detachNewThread {
                usleep(100_000)
                let curl = Process()
                curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                curl.arguments = ["-s", "-o", "/dev/null", target]
                try? curl.run()
                curl.waitUntilExit()
            }
        }
    }

    func run(issuer: String? = "https://idp.test", issRequired: Bool = false, endpoint: String = "https://idp.test/authorize",
             _ redirect: @escaping @Sendable ([String: String]) -> [(String, String)]) async throws -> (TokenSet, FakeHTTPClient) {
        let http = FakeHTTPClient(json: [(200, #"{"access_token":"at","token_type":"Bearer","expires_in":60}"#)])
        let flow = AuthorizationCodeFlow(
            authorizationEndpoint: endpoint,
            token: TokenEndpoint(url: "https://idp.test/token", client: OAuthClient(id: "c", authentication: .none), http: http),
            scopes: ["openid"], issuer: issuer, issRequired: issRequired, redirect: .init(), clock: FixedClock(Instant(secondsSinceEpoch: 0)))
        let (tokens, _) = try await flow.run(presenter: BrowserPresenter(redirectWith: redirect), browser: nil, timeout: .seconds(20))
        return (tokens, http)
    }

    @Test func aGoodRedirectIsRedeemedWithTheVerifier() async throws {
        let (tokens, http) = try await run { p in
            #expect(p["code_challenge_method"] == "S256" && p["code_challenge"]?.count == 43 && p["nonce"] != nil)
            return [("code", "the-code"), ("state", p["state"]!), ("iss", "https://idp.test")]
        }
        #expect(tokens.accessToken == Secret("at"))
        let form = http.form(0)
        #expect(form["grant_type"] == "authorization_code" && form["code"] == "the-code")
        #expect(PKCE(verifier: form["code_verifier"]!).challenge.count == 43)
        #expect(form["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
    }

    /// Plays a hostile local process and then the browser: opens an idle connection to the
    /// loopback port and leaves it silent, sends `forged` redirects with a wrong state, then
    /// (unless `right` is false) the right redirect.
    struct HostileThenBrowser: SignInPresenter {
        let forged: Int
        let right: Bool
        let idle: IdleSocket
        func present(_ prompt: SignInPrompt) async {
            guard case .browser(let url, _) = prompt, let q = url.split(separator: "?").last,
                  let params = FormEncoding.decode(String(q)) else { return }
            let p = Dictionary(params, uniquingKeysWith: { a, _ in a })
            let redirect = p["redirect_uri"]!
            let port = UInt16(redirect.split(separator: ":").last!.split(separator: "/").first!)!
            idle.connect(port: port)
            let forged = self.forged, right = self.right
            Thread.detachNewThread {
                func get(_ target: String) {
                    let curl = Process()
                    curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                    curl.arguments = ["-s", "-o", "/dev/null", "--max-time", "10", target]
                    try? curl.run()
                    curl.waitUntilExit()
                }
                for _ in 0..<forged { get(redirect + "?" + FormEncoding.encode([("code", "forged-code"), ("state", "wrong")])) }
                if right { get(redirect + "?" + FormEncoding.encode([("code", "the-code"), ("state", p["state"]!), ("iss", "https://idp.test")])) }
            }
        }
    }

    /// A TCP connection to the loopback listener that never sends a byte, closed by the test.
    final class IdleSocket: @unchecked Sendable {
        var fd: Int32 = -1
        func connect(port: UInt16) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = port.bigEndian
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        deinit { if fd >= 0 { close(fd) } }
    }

    func hostileRun(forged: Int, right: Bool, timeout: TimeSpan) async throws -> (TokenSet, FakeHTTPClient) {
        let http = FakeHTTPClient(json: [(200, #"{"access_token":"at","token_type":"Bearer","expires_in":60}"#)])
        let flow = AuthorizationCodeFlow(
            authorizationEndpoint: "https://idp.test/authorize",
            token: TokenEndpoint(url: "https://idp.test/token", client: OAuthClient(id: "c", authentication: .none), http: http),
            scopes: ["openid"], issuer: "https://idp.test", issRequired: false, redirect: .init(), clock: FixedClock(Instant(secondsSinceEpoch: 0)))
        let idle = IdleSocket()
        defer { withExtendedLifetime(idle) {} }
        let (tokens, _) = try await flow.run(presenter: HostileThenBrowser(forged: forged, right: right, idle: idle), browser: nil, timeout: timeout)
        return (tokens, http)
    }

    /// Issue 26: one forged `GET /callback?state=wrong` from any local process ended the
    /// sign-in with state_mismatch, and an idle connection held the listener 5 s. Now the
    /// forged redirects are ignored, the idle connection waits beside the others, and the
    /// right redirect signs in at once.
    @Test func aForgedRedirectAndAnIdleConnectionNeitherEndNorDelayTheSignIn() async throws {
        let started = Date()
        let (tokens, http) = try await hostileRun(forged: 2, right: true, timeout: .seconds(20))
        let took = Date().timeIntervalSince(started)
        #expect(tokens.accessToken == Secret("at"))
        #expect(http.form(0)["code"] == "the-code", "the forged code is never redeemed")
        #expect(took < 4, "an idle connection must not hold up the right redirect (took \(took) s)")
    }

    /// A wrong state alone ends at the timeout, and the message counts what was ignored.
    @Test func aWrongStateAloneEndsAtTheTimeoutCountingTheIgnoredRedirects() async throws {
        do {
            _ = try await hostileRun(forged: 2, right: false, timeout: .seconds(3))
            Issue.record("accepted a forged state")
        } catch let f as AuthFailure {
            #expect(f.code == "timeout", "\(f)")
            #expect(f.remedy.contains("2 redirects with the wrong state (not from this sign-in) were ignored"), "\(f.remedy)")
        }
    }

    @Test func aWrongIssuerIsRefused() async throws {
        do {
            _ = try await run { p in [("code", "x"), ("state", p["state"]!), ("iss", "https://evil.test")] }
            Issue.record("accepted another issuer")
        } catch let f as AuthFailure {
            #expect(f.code == "iss_mismatch")
        }
        // A provider that promised iss (RFC 9207 metadata) must send it.
        do {
            _ = try await run(issRequired: true) { p in [("code", "x"), ("state", p["state"]!)] }
            Issue.record("accepted a missing iss")
        } catch let f as AuthFailure {
            #expect(f.code == "iss_mismatch")
        }
    }

    @Test func aDeclinedSignInIsDeclined() async throws {
        do {
            _ = try await run { p in [("error", "access_denied"), ("state", p["state"]!)] }
            Issue.record("accepted a declined sign-in")
        } catch let f as AuthFailure {
            #expect(f.errorClass == .declined)
        }
    }

    /// Issue 26: the authorization endpoint (from discovery) reached the browser's argv and the
    /// screen whatever it was. Only https, or http on loopback, is shown or opened.
    @Test(arguments: ["file:///etc/passwd", "javascript:alert(1)//", "ssh://evil.example/a", "--new-window", "http://evil.example/authorize",
                      "https://idp.test/\u{1b}]0;t\u{07}"])
    func anAuthorizationEndpointThatIsNotHTTPSIsRefusedBeforeAnythingIsShown(endpoint: String) async throws {
        do {
            _ = try await run(endpoint: endpoint) { p in
                Issue.record("the URL was shown: \(p)")
                return [("code", "x"), ("state", p["state"]!)]
            }
            Issue.record("accepted \(endpoint)")
        } catch let f as AuthFailure {
            #expect(f.code == "unsafe_url" && f.remedy.hasPrefix("the authorization_endpoint "), "\(f.remedy)")
        }
    }
}
