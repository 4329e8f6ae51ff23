import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// RFC 7009 token revocation: tells the server to forget a token at sign-out.
public struct Revocation: Sendable {
    public let endpoint: String
    public let client: OAuthClient
    public let http: any HTTPClient
    public let extraHeaders: [HTTPHeader]

    public init(endpoint: String, client: OAuthClient, http: any HTTPClient, extraHeaders: [HTTPHeader] = []) {
        self.endpoint = endpoint
        self.client = client
        self.http = http
        self.extraHeaders = extraHeaders
    }

    /// Revokes `token`. 200 means done (also for tokens the server does not know, per the
    /// RFC); a 5xx or network failure is transient; other answers are misconfiguration.
    public func revoke(_ token: Secret, hint: String, now: Instant) async throws {
        let authed = try client.authenticate([("token", token.exposedValue), ("token_type_hint", hint)], endpoint: endpoint, now: now)
        let response = try await TokenEndpoint.send(HTTPRequest.form(endpoint, authed.fields, headers: authed.headers + extraHeaders), via: http)
        let host = URL(string: endpoint)?.host ?? endpoint
        guard response.status == 200 else {
            let t = TokenEndpoint(url: endpoint, client: client, http: http)
            throw t.failure(for: response, grant: .other, host: host, secrets: [token.exposedValue] + authed.secrets)
        }
    }
}
