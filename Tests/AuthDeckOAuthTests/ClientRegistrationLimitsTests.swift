import Testing
import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth
import AuthDeckTestSupport

/// Issue 38, section 5: a registration answer (RFC 7591) carries at most
/// `ClientRegistration.fieldLimit` bytes per field. A 900 KB `client_id` was sealed and every
/// later sign-in failed as a "network" error; now the registration is refused, naming the field.
@Suite struct ClientRegistrationLimitsTests {
    static let endpoint = "https://idp.test/register"

    static func answer(_ override: [String: Any]) throws -> String {
        var body: [String: Any] = ["client_id": "c-1", "client_secret": "s-1", "registration_access_token": "rat-1",
                                   "registration_client_uri": "https://idp.test/register/c-1", "token_endpoint_auth_method": "client_secret_basic",
                                   "grant_types": ["authorization_code", "refresh_token"]]
        body.merge(override) { $1 }
        return String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
    }

    func register(_ override: [String: Any]) async throws -> ClientRegistration.Registered {
        let http = ScriptedHTTPClient()
        let body = try Self.answer(override)
        http.on("POST", Self.endpoint) { _ in ScriptedHTTPClient.json(201, body) }
        return try await ClientRegistration(endpoint: Self.endpoint, http: http)
            .register(grantTypes: ["authorization_code", "refresh_token"], redirectURI: "http://127.0.0.1:8400/callback", scope: "openid").0
    }

    @Test func eachFieldIsRefusedPastTheLimitAndKeptAtIt() async throws {
        let limit = ClientRegistration.fieldLimit
        #expect(limit == 4096)
        let atLimit = String(repeating: "a", count: limit)
        let kept = try await register(["client_id": atLimit, "client_secret": atLimit, "registration_access_token": atLimit])
        #expect(kept.clientId == atLimit && kept.clientSecret == Secret(atLimit) && kept.accessToken == Secret(atLimit))
        let over = String(repeating: "a", count: limit + 1), huge = String(repeating: "x", count: 900_000)
        let cases: [(String, Any, Int)] = [
            ("client_id", huge, 900_000), ("client_id", over, limit + 1), ("client_secret", huge, 900_000),
            ("registration_access_token", huge, 900_000), ("registration_client_uri", "https://idp.test/" + huge, 900_017),
            ("token_endpoint_auth_method", huge, 900_000), ("grant_types", Array(repeating: "refresh_token", count: 400), 400 * 14),
            ("client_id", String(repeating: "é", count: 2049), 4098),
        ]
        for (field, value, bytes) in cases {
            do {
                _ = try await register([field: value])
                Issue.record("a \(field) of \(bytes) bytes was accepted")
            } catch let failure as AuthFailure {
                #expect(failure.errorClass == .misconfigured && failure.code == "bad_response", "\(field)")
                #expect(failure.remedy.contains("a \(field) of \(bytes) bytes (at most 4096 are accepted); nothing was stored"), "\(failure.remedy)")
                #expect(!failure.remedy.contains("xxxxxxxx") && failure.remedy.count < 400, "the value is not echoed")
            }
        }
    }
}
