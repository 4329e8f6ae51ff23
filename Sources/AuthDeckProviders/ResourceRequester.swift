import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Sends a request to a resource with an account's credential, renewing it and retrying once
/// when the server asks for a new one — what the OAM SDK's REST handler and the SharePoint app
/// did for their callers, for `authdeck request`.
///
/// The credential is a bearer token, the account's cookies, the provider's extra headers
/// (OAM's identity domain) and its client certificate. It goes only to the origin (scheme,
/// host and port) of the URL the caller named: a redirect elsewhere is followed bare, so a
/// server cannot bounce a token to a host of its choosing. A response that asks for new
/// credentials — 401 with a `Bearer` challenge, or SharePoint's 403 with
/// `X-FORMS_BASED_AUTH_REQUIRED` — is never written out: the credential is renewed (single
/// flight, committed before use) and the request sent once more. An account of a Mobile and
/// Social server answers a WebGate's `OAM-Auth` challenge instead (`WebGateRequester`).
public struct ResourceRequester: Sendable {
    public let adapter: any ProviderAdapter
    public let renewer: RenewalCoordinator
    public let http: any HTTPClient
    public let tls: TLSOptions
    public let scopes: [String]
    public let maxRedirects: Int

    public init(adapter: any ProviderAdapter, renewer: RenewalCoordinator, http: any HTTPClient, tls: TLSOptions,
                scopes: [String] = [], maxRedirects: Int = 10) {
        self.adapter = adapter
        self.renewer = renewer
        self.http = http
        self.tls = tls
        self.scopes = scopes
        self.maxRedirects = maxRedirects
    }

    /// What happened, once the final response has been written out.
    public struct Outcome: Sendable {
        /// The final response; its body is empty when it went to the output.
        public var response: HTTPResponse
        /// The URLs requested, in order, for the last attempt.
        public var hops: [String]
        /// Whether the server asked for new credentials and the request was retried.
        public var renewed: Bool
        /// Whether a redirect left the origin, so later hops went without the credential.
        public var leftOrigin: Bool
    }

    /// Sends `request` for `accountId`, writing the final body through `output`.
    public func send(_ request: HTTPRequest, accountId: String,
                     output: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) async throws -> Outcome {
        if let gate = WebGateRequester(self) { return try await gate.send(request, accountId: accountId, output: output) }
        let stored = try await renewer.renew(accountId, with: adapter, scopes: scopes)
        let first = try await attempt(request, stored: stored, output: output, finalTry: false)
        guard first.challenged else { return first.outcome }
        if let error = stored.account.lastError, error.errorClass == .needsInteraction {
            // The provider already refused a renewal: asking again would fail the same way.
            throw AuthFailure(.needsInteraction, code: error.code, remedy: error.remedy)
        }
        let renewed = try await renewer.renew(accountId, with: adapter, scopes: scopes, force: true)
        let second = try await attempt(request, stored: renewed, output: output, finalTry: true)
        if second.challenged {
            throw AuthFailure(.needsInteraction, code: "refused",
                              remedy: "\(Self.origin(of: request.url)?.text ?? request.url) still refuses \(accountId) after a renewal (HTTP \(second.outcome.response.status)\(Self.challengeDetail(second.outcome.response, sent: renewed))); sign in again: `authdeck login \(stored.account.providerId)`")
        }
        var outcome = second.outcome
        outcome.renewed = true
        return outcome
    }

    /// One pass through the redirects with the credentials of `stored`.
    func attempt(_ request: HTTPRequest, stored: StoredAccount, output: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
                 finalTry: Bool) async throws -> (outcome: Outcome, challenged: Bool) {
        let credential = try credential(of: stored)
        let usesCookies = credential.cookieJar != nil
        return try await attempt(request, carrying: credential, output: output) { status, headers in
            Self.isChallenge(status: status, headers: headers, cookies: usesCookies)
        }
    }

    /// One pass through the redirects, `credential` going only to the request's origin; a
    /// response there that `asksAgain` is returned as challenged, its body not written out.
    func attempt(_ request: HTTPRequest, carrying credential: (headers: [HTTPHeader], cookieJar: [String]?),
                 output: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
                 asksAgain: @escaping @Sendable (Int, [HTTPHeader]) -> Bool) async throws -> (outcome: Outcome, challenged: Bool) {
        guard let home = Self.origin(of: request.url) else { throw HTTPError.invalidURL(request.url) }
        var current = request
        var hops: [String] = []
        var leftOrigin = false
        for hop in 0...maxRedirects {
            let sameOrigin = Self.origin(of: current.url) == home
            leftOrigin = leftOrigin || !sameOrigin
            var r = current
            if sameOrigin {
                r.headers += credential.headers
                r.cookieJar = credential.cookieJar
                r.tls = tls
                // Only to the origin the person named, over https or loopback http.
                r.passage = SecretPassage(credential.cookieJar == nil ? [.accessToken] : [.accessToken, .cookie],
                                          home: GrantHome(issuer: nil, origins: [request.url].compactMap(GrantHome.origin(of:))))
            } else {
                r.cookieJar = nil
                r.tls = TLSOptions()
            }
            let lastHop = hop == maxRedirects
            r.bodyStream = BodyStream(accept: { status, headers in
                if sameOrigin, asksAgain(status, headers) { return false }
                if !lastHop, Self.isRedirect(status), headers.contains(where: { $0.name.lowercased() == "location" }) { return false }
                return true
            }, write: output)
            hops.append(r.url)
            let response = try await TokenEndpoint.send(r, via: http)
            if sameOrigin, asksAgain(response.status, response.headers) {
                return (Outcome(response: response, hops: hops, renewed: false, leftOrigin: leftOrigin), true)
            }
            guard !lastHop, Self.isRedirect(response.status), let location = response.header("Location"),
                  let next = URL(string: location, relativeTo: URL(string: current.url))?.absoluteURL.absoluteString else {
                return (Outcome(response: response, hops: hops, renewed: false, leftOrigin: leftOrigin), false)
            }
            current.url = next
            // 303, and 301/302 after a POST, turn into a GET without a body, as browsers and curl do.
            if response.status == 303 || ((response.status == 301 || response.status == 302) && current.method.uppercased() == "POST") {
                current.method = "GET"
                current.body = nil
                current.headers.removeAll { $0.name.lowercased() == "content-type" }
            }
        }
        preconditionFailure("the loop returns at its last hop")
    }

    /// The headers and cookie jar that carry `stored`'s credential.
    func credential(of stored: StoredAccount) throws -> (headers: [HTTPHeader], cookieJar: [String]?) {
        let now = renewer.clock.now()
        var headers = adapter.resourceHeaders.map { HTTPHeader($0.name, $0.value) }
        var jar: [String]?
        // The renewer has just made sure the credential is fresh, so no skew margin here: a
        // token the server issued a moment ago is used even if it lives shorter than the skew.
        if let token = stored.credentials.usableAccessToken(for: scopes, at: now, skew: .seconds(0)) {
            // A Mobile and Social user token is the OAM session itself: it goes only to its
            // Mobile and Social server, never as a bearer token to a resource (a WebGate takes
            // an access token minted for it: `WebGateRequester`, PROVIDERS.md §5).
            guard token.tokenType != OAMAdapter.userTokenType else {
                throw AuthFailure(.misconfigured, code: "user_token",
                                  remedy: "\(stored.account.id) holds a Mobile and Social user token, which is sent only to its Mobile and Social server, never as a bearer token; nothing was sent")
            }
            headers.append(HTTPHeader("Authorization", "Bearer \(token.value.exposedValue)"))
        }
        if !stored.credentials.cookies.isEmpty, stored.credentials.cookiesUsable(at: now, skew: .seconds(0)) {
            do { jar = try NetscapeCookieJar.lines(stored.credentials.cookies) } catch {
                throw AuthFailure(.needsInteraction, code: "bad_cookie", remedy: "\(stored.account.id): \(error); sign in again: `authdeck login \(stored.account.providerId)`")
            }
        }
        guard jar != nil || headers.contains(where: { $0.name == "Authorization" }) else {
            throw AuthFailure(.needsInteraction, code: "no_credential",
                              remedy: "\(stored.account.id) holds no valid token\(scopes.isEmpty ? "" : " for scope \(scopes.joined(separator: " "))") or cookie; sign in: `authdeck login \(stored.account.providerId)`")
        }
        return (headers, jar)
    }

    /// A response that asks for new credentials: 401 with a Bearer challenge (any 401 for a
    /// cookie account), or SharePoint's forms-auth 403.
    static func isChallenge(status: Int, headers: [HTTPHeader], cookies: Bool) -> Bool {
        if status == 403 { return headers.contains { $0.name.lowercased() == "x-forms_based_auth_required" } }
        guard status == 401 else { return false }
        if cookies { return true }
        return headers.contains { $0.name.lowercased() == "www-authenticate" && $0.value.lowercased().hasPrefix("bearer") }
    }

    static func isRedirect(_ status: Int) -> Bool { [301, 302, 303, 307, 308].contains(status) }

    /// The `error` of a Bearer challenge, for the message (an RFC 6749 code only: `OAuthErrorCode`).
    static func challengeDetail(_ response: HTTPResponse, sent: StoredAccount) -> String {
        guard let challenge = response.headers(named: "WWW-Authenticate").first(where: { $0.lowercased().hasPrefix("bearer") }),
              let range = challenge.range(of: "error=\"") else { return "" }
        let code = challenge[range.upperBound...].prefix { $0 != "\"" }
        let secrets = sent.credentials.accessTokens.map(\.value.exposedValue) + sent.credentials.cookies.map(\.value.exposedValue)
        return ": " + OAuthErrorCode.sanitized(String(code.prefix(OAuthErrorCode.maximumLength + 1)), redacting: secrets)
    }

    /// Scheme, host and port: what a credential is bound to.
    struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: Int
        var text: String { "\(scheme)://\(host)" + ((scheme == "https" && port == 443) || (scheme == "http" && port == 80) ? "" : ":\(port)") }
    }

    static func origin(of url: String) -> Origin? {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = u.host?.lowercased() else { return nil }
        return Origin(scheme: scheme, host: host, port: u.port ?? (scheme == "https" ? 443 : 80))
    }
}
