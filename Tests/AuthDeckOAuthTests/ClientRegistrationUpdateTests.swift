import Testing
import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// RFC 7592 §2.2 as `ClientRegistration.update` speaks it: a PUT of the whole metadata with the
/// registration access token, the server's answer read for what changed, and "cannot update"
/// (nil) told apart from a refusal, so the adapter knows when to register anew.
@Suite struct ClientRegistrationUpdateTests {
    let home = GrantHome(issuer: "https://a.example", origins: ["https://a.example"])
    let registered = ClientRegistration.Registered(
        clientId: "c1", clientSecret: Secret("CS-1"), accessToken: Secret("RAT-1"), clientURI: "https://a.example/register/c1",
        authMethod: "client_secret_basic", grantTypes: ["authorization_code", "refresh_token", "device_authorization"],
        redirectURI: "http://127.0.0.1:8400/callback")
    let wanted = ["authorization_code", "refresh_token", ClientRegistration.deviceGrant, "password"]

    func body(_ request: HTTPRequest) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(request.body ?? []))) as? [String: Any] ?? [:]
    }

    @Test func aPutCarriesTheWholeMetadataAndKeepsWhatTheAnswerLeavesOut() async throws {
        let http = FakeHTTPClient(json: [(200, #"{"client_id":"c1","client_secret":"CS-2","grant_types":["authorization_code","refresh_token","device_authorization","password"]}"#)])
        let (updated, refused) = try #require(try await ClientRegistration(endpoint: "", http: http)
            .update(registered, grantTypes: wanted, scope: "openid", home: home))
        let request = try #require(http.requests.first)
        #expect(request.method == "PUT" && request.url == "https://a.example/register/c1")
        #expect(request.headers.contains { $0.name == "Authorization" && $0.value == "Bearer RAT-1" })
        let sent = body(request)
        #expect(sent["client_id"] as? String == "c1")
        // The device grant is spelled as this server spelled it at registration.
        #expect(sent["grant_types"] as? [String] == ["authorization_code", "refresh_token", "device_authorization", "password"])
        #expect(sent["redirect_uris"] as? [String] == ["http://127.0.0.1:8400/callback"])
        #expect(refused.isEmpty)
        #expect(updated.clientSecret?.exposedValue == "CS-2", "the new secret is taken")
        #expect(updated.accessToken?.exposedValue == "RAT-1" && updated.clientURI == registered.clientURI, "left out: unchanged")
        #expect(updated.grantTypes.contains("password"))
    }

    @Test func aServerWithoutManagementCannotUpdate() async throws {
        for status in [401, 403, 404, 405, 501] {
            let http = FakeHTTPClient(json: [(status, "")])
            let answer = try await ClientRegistration(endpoint: "", http: http).update(registered, grantTypes: wanted, scope: nil, home: home)
            #expect(answer == nil, "HTTP \(status)")
        }
        var unmanaged = registered
        unmanaged.accessToken = nil
        let http = FakeHTTPClient(json: [])
        #expect(try await ClientRegistration(endpoint: "", http: http).update(unmanaged, grantTypes: wanted, scope: nil, home: home) == nil)
        #expect(http.requests.isEmpty)
    }

    @Test func aRefusedGrantIsLeftOutOnceAndNamed() async throws {
        let http = FakeHTTPClient(json: [
            (400, #"{"error":"invalid_client_metadata","error_description":"grant_types must be among 'authorization_code', 'refresh_token', 'device_authorization'"}"#),
            (200, #"{"client_id":"c1"}"#),
        ])
        let (updated, refused) = try #require(try await ClientRegistration(endpoint: "", http: http)
            .update(registered, grantTypes: wanted, scope: nil, home: home))
        #expect(refused == ["password"])
        #expect(body(http.requests[1])["grant_types"] as? [String] == ["authorization_code", "refresh_token", "device_authorization"])
        #expect(updated.clientSecret?.exposedValue == "CS-1")
    }

    @Test func anUnavailableServerIsTransientAndAnotherClientIdIsRefused() async throws {
        await #expect { try await ClientRegistration(endpoint: "", http: FakeHTTPClient(json: [(503, "")]))
            .update(registered, grantTypes: wanted, scope: nil, home: home) } throws: { ($0 as? AuthFailure)?.errorClass == .transient }
        await #expect { try await ClientRegistration(endpoint: "", http: FakeHTTPClient(json: [(200, #"{"client_id":"other"}"#)]))
            .update(registered, grantTypes: wanted, scope: nil, home: home) } throws: { ($0 as? AuthFailure)?.code == "bad_response" }
    }
}
