import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// RFC 7009 token revocation: tells the server to forget a token at sign-out.
public struct Revocation: Sendable {
    public let endpoint: String
    public let client: OAuthClient
    public let http: any HTTPClient
    public let extraHeaders: [HTTPHeader]
    /// The issuer the endpoint speaks for now (see `TokenEndpoint.issuer`).
    public let issuer: String?

    public init(endpoint: String, client: OAuthClient, http: any HTTPClient, extraHeaders: [HTTPHeader] = [], issuer: String? = nil) {
        self.endpoint = endpoint
        self.client = client
        self.http = http
        self.extraHeaders = extraHeaders
        self.issuer = issuer
    }

    /// Revokes `token`. 200 means done (also for tokens the server does not know, per the
    /// RFC); a 5xx or network failure is transient; other answers are misconfiguration.
    ///
    /// A refresh token goes only to its `home`, as a renewal would send it; where the one
    /// decision refuses, nothing is sent and `RevocationUnavailable` says why, so sign-out
    /// goes on locally instead of handing the grant to wherever config now points.
    public func revoke(_ token: Secret, hint: String, home: GrantHome? = nil, now: Instant) async throws {
        let authed = try client.authenticate([("token", token.exposedValue), ("token_type_hint", hint)], endpoint: endpoint, now: now)
        var request = HTTPRequest.form(endpoint, authed.fields, headers: authed.headers + extraHeaders)
        var kinds: Set<SecretKind> = [hint == "refresh_token" ? .refreshToken : .accessToken]
        if authed.fields.contains(where: { $0.0 == "client_assertion" }) { kinds.insert(.clientAssertion) }
        else if !authed.secrets.isEmpty { kinds.insert(.clientSecret) }
        request.passage = SecretPassage(kinds, home: home, issuer: issuer)
        if let refusal = SecretDestination.refusal(request.passage!, to: endpoint) {
            throw RevocationUnavailable(reason: "the \(hint == "refresh_token" ? "refresh" : "access") token was not sent for revocation: \(refusal)")
        }
        let response = try await TokenEndpoint.send(request, via: http)
        let host = URL(string: endpoint)?.host ?? endpoint
        guard response.status == 200 else {
            let t = TokenEndpoint(url: endpoint, client: client, http: http)
            throw t.failure(for: response, grant: .other, host: host, secrets: [token.exposedValue] + authed.secrets)
        }
    }
}
