import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// The OAuth client authdeck acts as at one provider: its id and how it authenticates.
public struct OAuthClient: Sendable {
    public enum Authentication: Sendable {
        /// A public client: only `client_id` is sent (PKCE protects the code).
        case none
        /// RFC 6749 §2.3.1 HTTP Basic with the form-encoded id and secret.
        case secretBasic(Secret)
        /// `client_id` and `client_secret` in the form body.
        case secretPost(Secret)
        /// RFC 7523 `private_key_jwt`: a signed assertion per request.
        case privateKeyJWT(ClientAssertionSigner)
        /// RFC 7521 with an assertion the server issued (OAM's mobile client registration):
        /// `client_id`, `client_assertion_type` jwt-bearer and the assertion as it was given.
        case clientAssertion(Secret)
    }

    public var id: String
    public var authentication: Authentication

    public init(id: String, authentication: Authentication) {
        self.id = id
        self.authentication = authentication
    }

    /// The client secret, where the authentication uses one (HS* id_token checks need it).
    public var secret: Secret? {
        switch authentication {
        case .secretBasic(let s), .secretPost(let s): return s
        case .none, .privateKeyJWT, .clientAssertion: return nil
        }
    }

    /// Adds this client's authentication to a form request for `endpoint`.
    /// Returns the fields and headers to send, and the secret values to redact from errors.
    func authenticate(_ fields: [(String, String)], endpoint: String, now: Instant) throws
        -> (fields: [(String, String)], headers: [HTTPHeader], secrets: [String]) {
        switch authentication {
        case .none:
            return ([("client_id", id)] + fields, [], [])
        case .secretBasic(let secret):
            let pair = FormEncoding.escape(id) + ":" + FormEncoding.escape(secret.exposedValue)
            let header = HTTPHeader("Authorization", "Basic " + Data(pair.utf8).base64EncodedString())
            return (fields, [header], [secret.exposedValue])
        case .secretPost(let secret):
            return ([("client_id", id), ("client_secret", secret.exposedValue)] + fields, [], [secret.exposedValue])
        case .privateKeyJWT(let signer):
            let assertion = try signer.assertion(clientId: id, audience: endpoint, now: now)
            return ([("client_id", id),
                     ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                     ("client_assertion", assertion)] + fields, [], [assertion])
        case .clientAssertion(let assertion):
            return ([("client_id", id),
                     ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                     ("client_assertion", assertion.exposedValue)] + fields, [], [assertion.exposedValue])
        }
    }
}
