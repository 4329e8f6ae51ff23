import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// An OIDC provider's discovery document (the fields authdeck uses).
public struct ProviderMetadata: Sendable, Equatable, Codable {
    public var issuer: String
    public var authorizationEndpoint: String?
    public var tokenEndpoint: String
    public var deviceAuthorizationEndpoint: String?
    public var revocationEndpoint: String?
    public var userinfoEndpoint: String?
    public var jwksURI: String?
    /// RFC 9207: the provider puts `iss` on its authorization responses.
    public var issParameterSupported: Bool
    /// RFC 7591: where a client registers itself (sign-in with only an issuer URL).
    public var registrationEndpoint: String?
    /// `id_token_signing_alg_values_supported`: how the issuer may sign id_tokens (nil when
    /// the document does not say, or was cached before it was read).
    public var idTokenSigningAlgs: [String]?

    public init(issuer: String, authorizationEndpoint: String?, tokenEndpoint: String,
                deviceAuthorizationEndpoint: String? = nil, revocationEndpoint: String? = nil,
                userinfoEndpoint: String? = nil, jwksURI: String? = nil, issParameterSupported: Bool = false,
                registrationEndpoint: String? = nil, idTokenSigningAlgs: [String]? = nil) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.jwksURI = jwksURI
        self.issParameterSupported = issParameterSupported
        self.registrationEndpoint = registrationEndpoint
        self.idTokenSigningAlgs = idTokenSigningAlgs
    }

    /// Why a client could not verify this issuer's id_tokens, judged from the document alone,
    /// or nil: it signs only with a shared secret (HS*) and the client has none. Said before a
    /// person is asked to sign in — afterwards, the approval is wasted and the issued grant
    /// left live at the server.
    public func idTokenVerificationProblem(clientHasSecret: Bool) -> String? {
        guard let algs = idTokenSigningAlgs, !algs.isEmpty, !clientHasSecret,
              algs.allSatisfy({ JWKSet.symmetric.contains($0) || $0 == "none" }) else { return nil }
        return "\(issuer) signs id_tokens only with \(algs.map { TerminalText.inert(String($0.prefix(12))) }.joined(separator: "/")) "
            + "(a secret shared with the client), and this client has no secret, so who signs in could not be checked; "
            + "have the issuer sign with RS256 or ES256 (its public keys at jwks_uri), or give the provider a client_secret"
    }

    /// `<issuer>/.well-known/openid-configuration` (OIDC Discovery §4).
    public static func discoveryURL(issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
    }

    /// Parses a discovery document and checks that it speaks for `issuer` (§4.3: the
    /// `issuer` value must be identical, or a mix-up attack is possible).
    public static func parse(_ bytes: [UInt8], issuer: String) throws -> ProviderMetadata {
        func bad(_ what: String) -> AuthFailure {
            AuthFailure(.misconfigured, code: "bad_discovery", remedy: "the discovery document of \(issuer) \(what)")
        }
        guard let json = JSONObject(bytes: bytes) else { throw bad("is not JSON") }
        guard let iss = json.string("issuer") else { throw bad("has no issuer") }
        guard iss == issuer else {
            throw bad("names another issuer (\"\(TerminalText.inert(String(iss.prefix(200))))\"); check endpoints.issuer")
        }
        guard let token = json.string("token_endpoint") else { throw bad("has no token_endpoint") }
        return ProviderMetadata(issuer: iss, authorizationEndpoint: json.string("authorization_endpoint"), tokenEndpoint: token,
                                deviceAuthorizationEndpoint: json.string("device_authorization_endpoint"),
                                revocationEndpoint: json.string("revocation_endpoint"),
                                userinfoEndpoint: json.string("userinfo_endpoint"), jwksURI: json.string("jwks_uri"),
                                issParameterSupported: json.bool("authorization_response_iss_parameter_supported") ?? false,
                                registrationEndpoint: json.string("registration_endpoint"),
                                idTokenSigningAlgs: json.array("id_token_signing_alg_values_supported")?.compactMap(\.string))
    }

    /// Fetches and parses the document.
    public static func fetch(issuer: String, http: any HTTPClient, timeout: Double? = nil) async throws -> (ProviderMetadata, [UInt8]) {
        let url = discoveryURL(issuer: issuer)
        var request = HTTPRequest(url: url, headers: [HTTPHeader("Accept", "application/json")])
        if let timeout {
            request.timeout = timeout
            request.connectTimeout = min(request.connectTimeout, timeout)
        }
        let response = try await TokenEndpoint.send(request, via: http)
        guard response.status == 200 else {
            throw AuthFailure(response.status >= 500 ? .transient : .misconfigured, code: "http \(response.status)",
                              remedy: "discovery at \(url) answered HTTP \(response.status); check endpoints.issuer")
        }
        return (try parse(response.body, issuer: issuer), response.body)
    }
}
