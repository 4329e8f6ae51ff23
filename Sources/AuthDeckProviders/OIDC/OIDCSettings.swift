import Foundation
import AuthDeckCore
import AuthDeckOAuth

/// A `kind = "oidc"` profile's options, read and checked once.
///
/// Options: `auth_method` (`none`, `client_secret_basic`, `client_secret_post`,
/// `private_key_jwt`; default basic with a secret, none without), `private_key_file` and
/// `certificate_file` (private_key_jwt), `redirect_host` (`127.0.0.1` or `localhost`),
/// `redirect_port` (0: ephemeral), `redirect_path` (`/callback`), `allow_password`
/// (`true` enables the discouraged password grant), `assertion_file` (a user JWT for the
/// JWT bearer grant).
///
/// Without `client_id` the provider registers a client at the issuer (RFC 7591) on its first
/// sign-in: `client` is nil and `OIDCAdapter.client(for:registering:)` finds the registration.
struct OIDCSettings: Sendable {
    /// The configured client; nil when the provider registers one dynamically.
    let client: OAuthClient?
    let redirect: AuthorizationCodeFlow.Redirect
    let allowPassword: Bool
    let assertionFile: String?

    init(_ profile: ProviderProfile, environment: [String: String]) throws {
        func bad(_ key: String, _ problem: String) -> AuthFailure {
            AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": options.\(key) \(problem)")
        }
        let o = profile.options
        let secret = try SecretSource.clientSecret(profile, environment: environment)
        let clientId = profile.clientId ?? ""
        let method = o["auth_method"] ?? (secret == nil ? "none" : "client_secret_basic")
        let auth: OAuthClient.Authentication
        switch method {
        case "none": auth = .none
        case "client_secret_basic", "client_secret_post":
            guard let secret else { throw bad("auth_method", "\(method) needs client_secret_file or client_secret_env") }
            auth = method == "client_secret_basic" ? .secretBasic(secret) : .secretPost(secret)
        case "private_key_jwt":
            guard let keyPath = o["private_key_file"] else { throw bad("auth_method", "private_key_jwt needs options.private_key_file") }
            let key = try SecretSource.file(keyPath, what: "provider \"\(profile.id)\": private_key_file", environment: environment)
            let cert = try o["certificate_file"].map {
                try SecretSource.file($0, what: "provider \"\(profile.id)\": certificate_file", environment: environment).exposedValue
            }
            let alg: ClientAssertionSigner.Algorithm = o["assertion_alg"] == "RS256" ? .rs256 : .ps256
            auth = .privateKeyJWT(try ClientAssertionSigner(privateKeyPEM: key.exposedValue, certificatePEM: cert, algorithm: alg))
        default:
            throw bad("auth_method", "must be none, client_secret_basic, client_secret_post or private_key_jwt (found \"\(method)\")")
        }
        if clientId.isEmpty {
            // A secret or key with no client to belong to is a mistake, not a request to register.
            guard secret == nil, o["auth_method"] == nil else {
                throw AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": a client secret or auth_method needs client_id "
                                      + "(leave all three out to register a client at the issuer)")
            }
            client = nil
        } else {
            client = OAuthClient(id: clientId, authentication: auth)
        }
        let host = o["redirect_host"] ?? "127.0.0.1"
        guard host == "127.0.0.1" || host == "localhost" else { throw bad("redirect_host", "must be 127.0.0.1 or localhost") }
        let path = o["redirect_path"] ?? "/callback"
        guard path.hasPrefix("/") else { throw bad("redirect_path", "must start with /") }
        redirect = AuthorizationCodeFlow.Redirect(host: host, port: try profile.redirectPort(), path: path)
        allowPassword = o["allow_password"] == "true"
        assertionFile = o["assertion_file"]
    }
}
