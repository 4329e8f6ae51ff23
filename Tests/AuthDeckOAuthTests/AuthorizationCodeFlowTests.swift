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

    @Test func aWrongStateIsRefusedAndNothingIsRedeemed() async throws {
        do {
            _ = try await run { _ in [("code", "x"), ("state", "forged")] }
            Issue.record("accepted a forged state")
        } catch let f as AuthFailure {
            // The forged redirect is ignored by the page logic but the flow still ends on it.
            #expect(f.code == "state_mismatch")
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
