import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// OAuth 2.0 dynamic client registration (RFC 7591) and its management (RFC 7592): how a
/// person with only an issuer URL gets a client to sign in with.
///
/// Why tolerant: real servers differ on registration metadata. glewlwyd names the device grant
/// `device_authorization` and answers `invalid_client_metadata` to RFC 8628's URN, listing the
/// values it accepts in `error_description`; a server may not offer the password grant at all.
/// A refusal of `grant_types` is read, the request retried once with what the server accepts
/// (or without the grants it cannot name), and the grants left out are returned so the caller
/// can say which flows that leaves.
public struct ClientRegistration: Sendable {
    /// What the issuer registered, as the store keeps it.
    public struct Registered: Sendable, Equatable {
        public var clientId: String
        public var clientSecret: Secret?
        /// RFC 7592: the bearer token that reads, updates and deletes this registration.
        public var accessToken: Secret?
        public var clientURI: String?
        /// `client_secret_basic`, `client_secret_post` or `none`.
        public var authMethod: String
        /// The grant types as this server names them.
        public var grantTypes: [String]
        public var redirectURI: String?

        public init(clientId: String, clientSecret: Secret?, accessToken: Secret?, clientURI: String?, authMethod: String,
                    grantTypes: [String], redirectURI: String?) {
            self.clientId = clientId
            self.clientSecret = clientSecret
            self.accessToken = accessToken
            self.clientURI = clientURI
            self.authMethod = authMethod
            self.grantTypes = grantTypes
            self.redirectURI = redirectURI
        }

        /// The client the token endpoint sees.
        public var client: OAuthClient {
            switch (authMethod, clientSecret) {
            case ("client_secret_post", let secret?): return OAuthClient(id: clientId, authentication: .secretPost(secret))
            case (_, let secret?) where authMethod != "none": return OAuthClient(id: clientId, authentication: .secretBasic(secret))
            default: return OAuthClient(id: clientId, authentication: .none)
            }
        }
    }

    /// RFC 8628's grant type, as registration metadata names it in the standard.
    public static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

    public let endpoint: String
    public let http: any HTTPClient

    public init(endpoint: String, http: any HTTPClient) {
        self.endpoint = endpoint
        self.http = http
    }

    /// Registers a client named "authdeck" for `grantTypes` (standard names) and the loopback
    /// `redirectURI`. Returns the registration and the standard grant types the server would
    /// not take.
    public func register(grantTypes: [String], redirectURI: String?, scope: String?) async throws -> (Registered, refused: [String]) {
        try await negotiate(grantTypes, named: [:], refusal: self.refusal(_:code:said:)) { names in
            let response = try await post(names, redirectURI: redirectURI, scope: scope)
            guard (200..<300).contains(response.status) else { return (response, nil) }
            return (response, try parse(response, asked: names, redirectURI: redirectURI))
        }
    }

    /// Sends `grantTypes` (standard names, spelled as `named` says where a server has its own
    /// name) with `send`, and once more with what the server says it accepts when it refuses
    /// them as `invalid_client_metadata`. `send` returns the answer and, for a 2xx, what it
    /// registered; any other answer is thrown as `refusal` says. Returns what was registered
    /// and the standard grant types left out.
    func negotiate(_ grantTypes: [String], named spelled: [String: String], refusal: (Int, String?, String?) -> AuthFailure,
                   send: ([String]) async throws -> (HTTPResponse, Registered?)) async throws -> (Registered, refused: [String]) {
        var asked = grantTypes
        var named = Dictionary(uniqueKeysWithValues: grantTypes.map { ($0, spelled[$0] ?? $0) })
        for attempt in 0..<2 {
            let (response, registered) = try await send(asked.map { named[$0] ?? $0 })
            if let registered { return (registered, grantTypes.filter { !asked.contains($0) }) }
            let json = JSONObject(bytes: response.body)
            let code = json?.string("error").map { OAuthErrorCode.sanitized($0, redacting: []) }
            let said = json?.string("error_description").map { TerminalText.inert(String($0.prefix(400))) }
            guard attempt == 0, response.status == 400, code == "invalid_client_metadata" else {
                throw refusal(response.status, code, said)
            }
            // The server's own words name what it accepts ('authorization_code', …), or not.
            let accepted = Self.quoted(in: said ?? "")
            if accepted.isEmpty {
                asked.removeAll { $0 == Self.deviceGrant || $0 == "password" }
            } else {
                asked = asked.filter { grant in
                    if accepted.contains(grant) { return true }
                    if grant == Self.deviceGrant, accepted.contains("device_authorization") {
                        named[grant] = "device_authorization"
                        return true
                    }
                    return false
                }
            }
        }
        throw refusal(400, "invalid_client_metadata", nil)
    }

    /// RFC 7592 §2.3: deletes the registration at the server. A registration the server no
    /// longer knows (401, 403, 404) is gone already; a 5xx or network failure throws
    /// `transient`, and the caller keeps its copy to try again.
    ///
    /// The registration access token goes only to `home` — the issuer's origin, and hosts the
    /// person named in config — though RFC 7592 lets a server name any
    /// `registration_client_uri`: the server's word alone must not send it elsewhere.
    public func delete(_ registered: Registered, home: GrantHome) async throws {
        guard let uri = registered.clientURI, let token = registered.accessToken else { return }
        var request = HTTPRequest(method: "DELETE", url: uri, headers: [HTTPHeader("Authorization", "Bearer \(token.exposedValue)")])
        request.passage = SecretPassage([.registrationAccessToken], home: home, issuer: home.issuer)
        if let refusal = SecretDestination.refusal(request.passage!, to: uri) {
            throw AuthFailure(.misconfigured, code: "unsafe_url",
                              remedy: "\(refusal) (the registration_client_uri); the registration was kept — if the issuer's registrations "
                                  + "live on that host, name it in the provider's options.registration_host")
        }
        let response = try await TokenEndpoint.send(request, via: http)
        let host = URL(string: uri)?.host ?? uri
        if (200..<300).contains(response.status) || [401, 403, 404].contains(response.status) { return }
        if response.status == 429 || response.status >= 500 {
            throw AuthFailure(.transient, code: "http \(response.status)",
                              remedy: "\(host) is unavailable (HTTP \(response.status)); the registration was kept, try again later")
        }
        throw AuthFailure(.misconfigured, code: "http \(response.status)",
                          remedy: "\(host) refused to delete the registration (HTTP \(response.status)); it was kept")
    }

    func post(_ grantTypes: [String], redirectURI: String?, scope: String?) async throws -> HTTPResponse {
        let body = try Self.metadata(grantTypes: grantTypes, redirectURI: redirectURI, scope: scope, authMethod: "client_secret_basic")
        return try await TokenEndpoint.send(HTTPRequest.json(endpoint, body, headers: [HTTPHeader("Accept", "application/json")]), via: http)
    }

    /// The client metadata authdeck registers (RFC 7591 §2), as the JSON a POST or an RFC 7592
    /// PUT sends; `clientId` only in a PUT, which must name the client it replaces.
    static func metadata(grantTypes: [String], redirectURI: String?, scope: String?, authMethod: String,
                         clientId: String? = nil) throws -> [UInt8] {
        var metadata: [String: Any] = ["client_name": "authdeck", "grant_types": grantTypes,
                                       "token_endpoint_auth_method": authMethod, "application_type": "native"]
        if let clientId { metadata["client_id"] = clientId }
        if let redirectURI {
            metadata["redirect_uris"] = [redirectURI]
            metadata["response_types"] = ["code"]
        } else {
            metadata["response_types"] = [String]()
        }
        if let scope { metadata["scope"] = scope }
        return Array(try JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys]))
    }

    /// The most bytes a registration answer's field may carry (`grant_types` counted whole).
    ///
    /// Why a cap: what is kept is sealed and then sent with every sign-in, renewal and
    /// revocation. A 900 KB `client_id`, once sealed, makes every later sign-in fail as a
    /// "network" error (libcurl out of memory) with no way out but editing the store. Real
    /// servers answer with ids, secrets and tokens of tens of bytes to a few hundred.
    public static let fieldLimit = 4096

    /// The first field of a registration answer over `fieldLimit`, with its size in bytes.
    static func oversized(_ json: JSONObject) -> (field: String, bytes: Int)? {
        for field in ["client_id", "client_secret", "registration_access_token", "registration_client_uri", "token_endpoint_auth_method"] {
            if let value = json.string(field), value.utf8.count > fieldLimit { return (field, value.utf8.count) }
        }
        if let grants = json.strings("grant_types") {
            let bytes = grants.reduce(0) { $0 + $1.utf8.count + 1 }
            if bytes > fieldLimit { return ("grant_types", bytes) }
        }
        return nil
    }

    func parse(_ response: HTTPResponse, asked: [String], redirectURI: String?) throws -> Registered {
        guard let json = JSONObject(bytes: response.body), let id = json.string("client_id"), !id.isEmpty else {
            throw refusal(response.status, code: "bad_response", said: "the answer has no client_id")
        }
        if let over = Self.oversized(json) {
            let host = URL(string: endpoint)?.host ?? endpoint
            throw AuthFailure(.misconfigured, code: "bad_response",
                              remedy: "\(host) answered the client registration with a \(over.field) of \(over.bytes) bytes (at most \(Self.fieldLimit) are "
                                  + "accepted); nothing was stored: ask its administrator for a client and set client_id in config.toml")
        }
        let method = json.string("token_endpoint_auth_method")
            ?? json.strings("token_endpoint_auth_method")?.first ?? "client_secret_basic"
        return Registered(clientId: id, clientSecret: json.string("client_secret").map { Secret($0) },
                          accessToken: json.string("registration_access_token").map { Secret($0) },
                          clientURI: json.string("registration_client_uri"), authMethod: method,
                          grantTypes: json.strings("grant_types") ?? asked, redirectURI: redirectURI)
    }

    func refusal(_ status: Int, code: String?, said: String?) -> AuthFailure {
        let host = URL(string: endpoint)?.host ?? endpoint
        if status == 429 || status >= 500 {
            return AuthFailure(.transient, code: "http \(status)", remedy: "\(host) could not register a client now (HTTP \(status)); try again later")
        }
        let why = [code, said].compactMap { $0 }.joined(separator: ": ")
        return AuthFailure(.misconfigured, code: code ?? "http \(status)",
                           remedy: "\(host) refused to register a client (HTTP \(status)\(why.isEmpty ? "" : ", \(why)")); "
                               + "set a client_id registered there by its administrator")
    }

    /// The values in single or double quotes in `text`, as servers list accepted values.
    static func quoted(in text: String) -> Set<String> {
        var out = Set<String>(), current: String?, quote: Character = "'"
        for ch in text {
            if var value = current {
                if ch == quote {
                    out.insert(value)
                    current = nil
                } else {
                    value.append(ch)
                    current = value
                }
            } else if ch == "'" || ch == "\"" {
                (current, quote) = ("", ch)
            }
        }
        return out
    }
}
