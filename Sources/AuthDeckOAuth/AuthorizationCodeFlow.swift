import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// Authorization code + PKCE (S256) with a one-shot loopback redirect (RFC 8252).
///
/// The browser is the system's (never an embedded view). `state` must come back unchanged (a
/// redirect with another one is ignored and the wait goes on: see `LoopbackListener`);
/// `iss`, when the redirect carries it or the provider promised it (RFC 9207), must be the
/// expected issuer — the mix-up defence for people with several providers.
public struct AuthorizationCodeFlow: Sendable {
    /// Where the loopback redirect lives. `host` is `127.0.0.1` (RFC 8252) or `localhost`
    /// (Azure AD ignores the port of `http://localhost` redirects; it needs that spelling).
    public struct Redirect: Sendable {
        public var host: String
        public var port: UInt16
        public var path: String

        public init(host: String = "127.0.0.1", port: UInt16 = 0, path: String = "/callback") {
            self.host = host
            self.port = port
            self.path = path
        }
    }

    public let authorizationEndpoint: String
    public let token: TokenEndpoint
    public let scopes: [String]
    public let issuer: String?
    public let issRequired: Bool
    public let redirect: Redirect
    public var extraParameters: [(String, String)]
    public let clock: any WallClock

    public init(authorizationEndpoint: String, token: TokenEndpoint, scopes: [String], issuer: String?, issRequired: Bool,
                redirect: Redirect, extraParameters: [(String, String)] = [], clock: any WallClock) {
        self.authorizationEndpoint = authorizationEndpoint
        self.token = token
        self.scopes = scopes
        self.issuer = issuer
        self.issRequired = issRequired
        self.redirect = redirect
        self.extraParameters = extraParameters
        self.clock = clock
    }

    /// Runs the flow: listen, show or open the URL, wait, check, redeem. Returns the tokens
    /// and the nonce that the id_token must carry.
    public func run(presenter: any SignInPresenter, browser: (any URLOpening)?, timeout: TimeSpan) async throws -> (TokenSet, String) {
        // From discovery or the config: shown and opened only as https (or http on loopback),
        // whether or not a browser is started — a printed `javascript:` link is a trap too.
        if let problem = WebLink.problemOpening(authorizationEndpoint, field: "the authorization_endpoint") {
            throw AuthFailure(.misconfigured, code: "unsafe_url", remedy: "\(problem); nothing was opened, check the provider's endpoints")
        }
        let listener: LoopbackListener
        do {
            listener = try LoopbackListener(port: redirect.port, path: redirect.path)
        } catch {
            throw AuthFailure(.misconfigured, code: "loopback", remedy: "\(error)")
        }
        let redirectURI = "http://\(redirect.host):\(listener.port)\(redirect.path)"
        let pkce = PKCE()
        let state = Base64URL.random(byteCount: 24)
        let nonce = Base64URL.random(byteCount: 24)
        let query: [(String, String)] = [
            ("response_type", "code"), ("client_id", token.client.id), ("redirect_uri", redirectURI),
            ("scope", scopes.joined(separator: " ")), ("state", state), ("nonce", nonce),
            ("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method),
        ] + extraParameters
        let separator = authorizationEndpoint.contains("?") ? "&" : "?"
        let url = authorizationEndpoint + separator + FormEncoding.encode(query)
        let opened = browser?.open(url) != nil
        await presenter.present(.browser(url: url, opened: opened))

        let expectedIssuer = issuer
        let params = try await {
            do {
                // A redirect with another state (forged by any local process, or a stale tab)
                // is answered, counted and ignored: the wait goes on for this sign-in's own.
                return try await listener.awaitRedirect(timeout: Double(timeout.seconds), state: state) { p in
                    Self.page(for: p, state: state, issuer: expectedIssuer)
                }
            } catch let error as LoopbackListener.ListenerError where error.timedOut {
                throw SignInTimeout.failure("no sign-in redirect arrived", within: timeout, ignored: error.ignored)
            } catch let error as LoopbackListener.ListenerError {
                throw AuthFailure(.needsInteraction, code: "loopback", remedy: "\(error); start the sign-in again")
            }
        }()
        guard params["state"] == state else {
            throw AuthFailure(.misconfigured, code: "state_mismatch",
                              remedy: "the sign-in redirect carried the wrong state (a forged or stale redirect); nothing was saved")
        }
        if let iss = params["iss"] ?? (issRequired ? "" : nil), let issuer, iss != issuer {
            throw AuthFailure(.misconfigured, code: "iss_mismatch",
                              remedy: "the sign-in redirect came from another issuer (\"\(TerminalText.inert(String(iss.prefix(100))))\", expected \(issuer)); nothing was saved")
        }
        if let error = params["error"] {
            throw OAuthErrorClassifier.failure(code: error, description: params["error_description"], redacting: [])
        }
        guard let code = params["code"], !code.isEmpty else {
            throw AuthFailure(.misconfigured, code: "no_code", remedy: "the sign-in redirect carried no code; nothing was saved")
        }
        let tokens = try await token.request(
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
             ("code_verifier", pkce.verifier)],
            grant: .authorizationCode, secrets: [code, pkce.verifier], now: clock.now())
        return (tokens, nonce)
    }

    /// The page the browser shows after the redirect (authdeck's words only).
    static func page(for params: [String: String], state: String, issuer: String?) -> (status: Int, html: String) {
        if params["state"] != state {
            return (400, "<h1>Sign-in not accepted</h1><p>This redirect does not belong to the sign-in authdeck started.</p>")
        }
        if params["error"] != nil {
            return (200, "<h1>Sign-in did not complete</h1><p>Return to authdeck to see why.</p>")
        }
        return (200, "<h1>Signed in</h1><p>You can close this tab and return to authdeck.</p>")
    }
}
