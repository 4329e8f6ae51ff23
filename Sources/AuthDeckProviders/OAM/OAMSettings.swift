import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// A `kind = "oam"` profile, read and checked once.
///
/// Endpoints: `endpoints.base` plus a preset (`options.preset`: `11g-ms` for Mobile & Social
/// `/ms_oauth/…`, `12c` for `/oauth2/rest/…`; default from `options.server_type`), or explicit
/// `endpoints.token` / `authorization` / `profile` / `revocation`. The identity domain
/// (`options.identity_domain`) is sent in `options.identity_domain_header` (default
/// `X-OAUTH-IDENTITY-DOMAIN-NAME`). `options.uppercase_grant_types = true` sends the 12c
/// documentation's `PASSWORD`, `REFRESH_TOKEN`… instead of the standard names.
/// `options.client_registration = true` makes authdeck a mobile client (`OAMRegistrar`): it
/// registers itself per user and authenticates with the client assertion it gets, so no client
/// secret is needed. `options.server_type = "mobile-social"` without a preset is the Mobile and
/// Social REST server type instead (`OAMRestSettings`); a preset always means OAuth.
struct OAMSettings: Sendable {
    let token: String
    let authorization: String?
    let profileURL: String?
    let revocation: String?
    let identityHeader: HTTPHeader?
    let client: OAuthClient
    let uppercase: Bool
    let assertionFile: String?
    let redirect: AuthorizationCodeFlow.Redirect
    /// A mobile client: registers per user and sends the client assertion instead of a secret.
    let registration: Bool
    /// The Mobile and Social REST server type, when configured (`OAMRestSettings`); nil for OAuth.
    let rest: OAMRestSettings?

    init(_ profile: ProviderProfile, environment: [String: String]) throws {
        func bad(_ p: String) -> AuthFailure { AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": \(p)") }
        let o = profile.options, e = profile.endpoints
        rest = try OAMRestSettings(profile)
        let preset = o["preset"] ?? (o["server_type"] == "mobile-social" ? "11g-ms" : "12c")
        guard preset == "11g-ms" || preset == "12c" else { throw bad("options.preset must be 11g-ms or 12c (found \"\(preset)\")") }
        let base = e["base"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        func path(_ ms: String, _ rest: String) -> String? { base.map { $0 + (preset == "11g-ms" ? ms : rest) } }
        guard let token = e["token"] ?? path("/ms_oauth/oauth2/endpoints/oauthservice/tokens", "/oauth2/rest/token") else {
            throw bad("set endpoints.base (the OAM server) or endpoints.token")
        }
        self.token = token
        authorization = e["authorization"] ?? path("/ms_oauth/oauth2/endpoints/oauthservice/authorize", "/oauth2/rest/authz")
        profileURL = e["profile"] ?? path("/ms_oauth/resources/userprofile/me", "/oauth2/rest/userinfo")
        // UNVERIFIED: no primary source names OAM's revocation path; RFC 7009 shape assumed.
        revocation = e["revocation"] ?? path("/ms_oauth/oauth2/endpoints/oauthservice/revoke", "/oauth2/rest/token/revoke")
        identityHeader = o["identity_domain"].map { HTTPHeader(o["identity_domain_header"] ?? "X-OAUTH-IDENTITY-DOMAIN-NAME", $0) }
        // The REST server type needs no OAuth client: the application's name stands for it.
        guard let clientId = profile.clientId ?? rest?.application, !clientId.isEmpty else { throw bad("client_id is required") }
        let secret = try SecretSource.clientSecret(profile, environment: environment)
        client = OAuthClient(id: clientId, authentication: secret.map { .secretBasic($0) } ?? .none)
        uppercase = o["uppercase_grant_types"] == "true"
        assertionFile = o["assertion_file"]
        guard [nil, "true", "false"].contains(o["client_registration"]) else { throw bad("options.client_registration must be true or false") }
        registration = o["client_registration"] == "true"
        redirect = AuthorizationCodeFlow.Redirect(host: "127.0.0.1", port: try profile.redirectPort(), path: o["redirect_path"] ?? "/callback")
    }

    /// A grant name as this server wants it.
    func grant(_ standard: String) -> String {
        guard uppercase else { return standard }
        return standard == "urn:ietf:params:oauth:grant-type:jwt-bearer" ? "JWT_BEARER" : standard.uppercased()
    }
}
