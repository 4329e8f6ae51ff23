import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// Posts grants to a token endpoint and turns every outcome into a `TokenSet` or an
/// `AuthFailure` with the right class.
///
/// - transport failures, timeouts, HTTP 429 and 5xx: transient (nothing may change);
/// - an OAuth error body: classified by its `error` code (an adapter may refine it);
/// - a 400/401 with no error body on a refresh grant: needs interaction (glewlwyd answers a
///   reused one-use refresh token that way);
/// - anything else unexpected: misconfigured, with the status and content type named.
public struct TokenEndpoint: Sendable {
    public enum Grant: Sendable, Equatable {
        case authorizationCode, refresh, deviceCode, clientCredentials, password, jwtBearer, other
    }

    public let url: String
    public let client: OAuthClient
    public let http: any HTTPClient
    public var extraHeaders: [HTTPHeader]
    /// Fields added to every grant (Azure AD's `client_info=1`).
    public var extraFields: [(String, String)] = []
    /// Provider-specific refinement of an error body (Azure's AADSTS codes); nil: generic.
    public var refine: (@Sendable (JSONObject, AuthFailure) -> AuthFailure)?
    /// The issuer (or authority) this endpoint speaks for, as the provider's config and
    /// discovery name it now: a grant made here records it as its home, and a grant made
    /// elsewhere is not sent here.
    public var issuer: String?

    public init(url: String, client: OAuthClient, http: any HTTPClient, extraHeaders: [HTTPHeader] = [],
                issuer: String? = nil, refine: (@Sendable (JSONObject, AuthFailure) -> AuthFailure)? = nil) {
        self.url = url
        self.client = client
        self.http = http
        self.extraHeaders = extraHeaders
        self.issuer = issuer
        self.refine = refine
    }

    /// The home a grant made at this endpoint gets: its issuer and origins.
    public var home: GrantHome { GrantHome.issued(by: issuer, at: url) }

    /// Sends `fields` (the grant) with client authentication; `secrets` are the secret
    /// values in the fields, redacted from any error text. `home` is where the grant being
    /// spent was issued (a refresh grant's, from the store): the request then goes only there.
    ///
    /// Every grant carries a secret (a code, a password, a refresh token, the client's own),
    /// so each is declared to `SecretDestination` through the HTTP client's gate: https or
    /// loopback http only, and a refresh token and the client's secret only to their home.
    /// Refused, nothing is sent — whatever the config, a discovery document or an imported
    /// configuration URL says. A refresh grant's answer with a new refresh token is told to
    /// `hearing` before anything else is done with it: the old one may be spent now.
    public func request(_ fields: [(String, String)], grant: Grant, secrets: [String], home: GrantHome? = nil,
                        hearing: RotationHearing? = nil, now: Instant) async throws -> TokenSet {
        let authed = try client.authenticate(fields + extraFields, endpoint: url, now: now)
        var request = HTTPRequest.form(url, authed.fields, headers: authed.headers + extraHeaders)
        request.passage = SecretPassage(Self.kinds(grant: grant, fields: authed.fields, clientSecret: !authed.secrets.isEmpty, client: client),
                                        home: home, issuer: issuer)
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw Self.failure(for: error, grant: grant)
        }
        let host = URL(string: url)?.host ?? url
        if (200..<300).contains(response.status) {
            var set = try TokenSet.parse(response.body, from: host)
            set.home = self.home
            if grant == .refresh, let rotated = set.refreshToken { hearing?.tell(rotated) }
            return set
        }
        throw failure(for: response, grant: grant, host: host, secrets: secrets + authed.secrets)
    }

    /// The kinds of secret a grant's fields carry, for the gate.
    static func kinds(grant: Grant, fields: [(String, String)], clientSecret: Bool, client: OAuthClient) -> Set<SecretKind> {
        var kinds: Set<SecretKind> = [.grantCode]
        switch grant {
        case .refresh: kinds.insert(.refreshToken)
        case .password: kinds.insert(.password)
        default: break
        }
        if fields.contains(where: { $0.0 == "client_assertion" }) { kinds.insert(.clientAssertion) }
        else if clientSecret { kinds.insert(.clientSecret) }
        return kinds
    }

    /// Sends a request, mapping transport errors to `AuthFailure`.
    public static func send(_ request: HTTPRequest, via http: any HTTPClient) async throws -> HTTPResponse {
        do {
            return try await http.send(request)
        } catch let error as HTTPError {
            throw failure(for: error, grant: .other)
        }
    }

    /// The failure a transport error means. Still transient for a refresh grant whose request
    /// may have reached the provider (no answer in time, the connection lost while waiting) —
    /// authdeck keeps every credential — but not "nothing was changed": a provider that rotates
    /// refresh tokens may have spent this one (a renewal stopped with Ctrl-Z past the timeout
    /// would say so while its account is already dead).
    static func failure(for error: HTTPError, grant: Grant) -> AuthFailure {
        if case .refused(let refusal) = error {
            return AuthFailure(refusal.errorClass, code: refusal.code, remedy: refusal.description)
        }
        let mayHaveArrived: Bool
        switch error {
        case .timedOut: mayHaveArrived = true
        case .transport(let code, _, _): mayHaveArrived = [18, 52, 55, 56].contains(code)  // partial, nothing back, send, receive
        default: mayHaveArrived = false
        }
        guard grant == .refresh, mayHaveArrived else {
            return AuthFailure(error.isTransient ? .transient : .misconfigured,
                               code: error.isTransient ? "network" : "http", remedy: "\(error); nothing was changed")
        }
        return AuthFailure(.transient, code: "network",
                           remedy: "\(error); the request may have reached the provider, which may have spent the refresh token if it "
                               + "rotates them — authdeck kept everything it holds; if the next renewal is refused, sign in again")
    }

    /// The failure an error response means.
    public func failure(for response: HTTPResponse, grant: Grant, host: String, secrets: [String]) -> AuthFailure {
        let status = response.status
        if status == 429 || status >= 500 {
            let retry = response.header("Retry-After").map { " (retry after \($0) s)" } ?? ""
            return AuthFailure(.transient, code: "http \(status)",
                               remedy: "\(host) is unavailable (HTTP \(status))\(retry); nothing was changed, try again later")
        }
        if let json = JSONObject(bytes: response.body), let code = json.string("error") {
            let generic = OAuthErrorClassifier.failure(code: code, description: json.string("error_description"), redacting: secrets,
                                                       password: grant == .password)
            var refined = refine?(json, generic) ?? generic
            refined.oauthError = generic.oauthError
            return refined
        }
        let what = response.body.isEmpty ? "an empty body" : "\(response.mediaType ?? "an unlabelled body"), not an OAuth error"
        if grant == .refresh, status == 400 || status == 401 {
            return AuthFailure(.needsInteraction, code: "http \(status)",
                               remedy: "\(host) rejected the refresh token (HTTP \(status) with \(what)); sign in again")
        }
        // glewlwyd answers a wrong password with an empty 403: the person's credentials, not
        // the endpoints (it read "check the provider's endpoints", exit 1).
        if grant == .password, status == 400 || status == 403 {
            return AuthFailure(.needsInteraction, code: "invalid_grant",
                               remedy: "\(host) did not accept the username or password (HTTP \(status) with \(what)); check them and sign in again")
        }
        return AuthFailure(.misconfigured, code: "http \(status)",
                           remedy: "\(host) answered HTTP \(status) with \(what); check the provider's endpoints")
    }
}
