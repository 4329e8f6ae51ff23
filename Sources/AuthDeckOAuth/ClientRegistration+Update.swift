import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// RFC 7592 §2.2: a registration's grant types changed in place, so a person who adds
/// `allow_password = true` after the first sign-in gets the password grant on the same client
/// (its accounts keep renewing) instead of an error about a grant nobody asked the server for.
extension ClientRegistration {
    /// Replaces the registration's metadata at its `registration_client_uri` with `grantTypes`
    /// (standard names; spelled as the server spelled them before). Returns the registration as
    /// the server now holds it (a server may issue a new client secret, as glewlwyd does) and the
    /// grant types it would not take; nil when the server cannot update it — no
    /// `registration_client_uri` or access token, or an answer of 401, 403, 404, 405 or 501 —
    /// so the caller may register anew.
    ///
    /// The registration access token goes only to `home`, as for `delete`; the answer is read
    /// as `register` reads one (a client id that must not change, bounded text).
    public func update(_ registered: Registered, grantTypes: [String], scope: String?, home: GrantHome) async throws -> (Registered, refused: [String])? {
        guard let uri = registered.clientURI, let token = registered.accessToken else { return nil }
        if let refusal = SecretDestination.refusal(SecretPassage([.registrationAccessToken], home: home, issuer: home.issuer), to: uri) {
            throw AuthFailure(.misconfigured, code: "unsafe_url",
                              remedy: "\(refusal) (the registration_client_uri); the registration was not updated — if the issuer's "
                                  + "registrations live on that host, name it in the provider's options.registration_host")
        }
        let spelled = Dictionary(registered.grantTypes.compactMap { name -> (String, String)? in
            name == "device_authorization" ? (Self.deviceGrant, name) : nil
        }, uniquingKeysWith: { first, _ in first })
        let host = URL(string: uri)?.host ?? uri
        do {
            return try await negotiate(grantTypes, named: spelled, refusal: { status, code, said in
                Self.updateRefusal(status, code: code, said: said, host: host)
            }) { names in
                let response = try await put(registered, grantTypes: names, scope: scope, to: uri, token: token, home: home)
                if [401, 403, 404, 405, 501].contains(response.status) { throw CannotUpdate() }
                guard (200..<300).contains(response.status) else { return (response, nil) }
                var updated = try parse(response, asked: names, redirectURI: registered.redirectURI)
                guard updated.clientId == registered.clientId else {
                    throw AuthFailure(.misconfigured, code: "bad_response",
                                      remedy: "\(host) answered the update of client \(registered.clientId) with another client id; the registration was kept")
                }
                // RFC 7592 §3: fields the answer leaves out are unchanged.
                updated.clientSecret = updated.clientSecret ?? registered.clientSecret
                updated.accessToken = updated.accessToken ?? registered.accessToken
                updated.clientURI = updated.clientURI ?? registered.clientURI
                return (response, updated)
            }
        } catch is CannotUpdate {
            return nil
        }
    }

    /// What `update` throws inside its negotiation when the server has no update to offer.
    struct CannotUpdate: Error {}

    func put(_ registered: Registered, grantTypes: [String], scope: String?, to uri: String, token: Secret,
             home: GrantHome) async throws -> HTTPResponse {
        let body = try Self.metadata(grantTypes: grantTypes, redirectURI: registered.redirectURI, scope: scope,
                                     authMethod: registered.authMethod, clientId: registered.clientId)
        var request = HTTPRequest.json(uri, body, method: "PUT", headers: [HTTPHeader("Authorization", "Bearer \(token.exposedValue)")])
        request.maxResponseBytes = 64 << 10
        request.passage = SecretPassage([.registrationAccessToken], home: home, issuer: home.issuer)
        return try await TokenEndpoint.send(request, via: http)
    }

    static func updateRefusal(_ status: Int, code: String?, said: String?, host: String) -> AuthFailure {
        if status == 429 || status >= 500 {
            return AuthFailure(.transient, code: "http \(status)",
                               remedy: "\(host) could not update the client registration now (HTTP \(status)); it was kept as it was, try again later")
        }
        let why = [code, said].compactMap { $0 }.joined(separator: ": ")
        return AuthFailure(.misconfigured, code: code ?? "http \(status)",
                           remedy: "\(host) refused to update the client registration (HTTP \(status)\(why.isEmpty ? "" : ", \(why)")); it was kept as it was")
    }
}
