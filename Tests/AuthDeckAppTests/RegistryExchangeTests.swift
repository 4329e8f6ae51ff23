import Testing
import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckApp
import AuthDeckTestSupport

/// `RegistryExchange` over a network of the test's own: what goes to the registry's
/// `/oauth2/exchange`, what comes back, and how a refusal or an outage is classed — with the
/// Entra token never in an error.
struct RegistryExchangeTests {
    static let url = "https://acr.example.io/oauth2/exchange"
    let token = AccessToken(id: "at", value: Secret("entra-token-Zq8"), scopes: ["https://management.azure.com/.default"],
                            obtainedAt: Instant(secondsSinceEpoch: 1_800_000_000), expiresAt: nil)

    @Test func theEntraTokenBecomesARegistryRefreshToken() async throws {
        let http = ScriptedHTTPClient()
        http.on("POST", Self.url) { _ in ScriptedHTTPClient.json(200, #"{"refresh_token":"acr-refresh-Zq8"}"#) }
        let secret = try await RegistryExchange(environment: [:], http: http).refreshToken(registry: "acr.example.io", token: token, caFile: "/etc/ca.pem")
        #expect(secret.exposedValue == "acr-refresh-Zq8")
        let sent = try #require(http.requests.first)
        #expect(ScriptedHTTPClient.form(sent) == ["grant_type": "access_token", "service": "acr.example.io", "access_token": "entra-token-Zq8"])
        #expect(sent.tls.caFile == "/etc/ca.pem" && http.requests.count == 1)
    }

    /// 5xx and 429 are transient (try again), another refusal is the entry's misconfiguration;
    /// neither error carries the token.
    @Test func aRefusalAndAnOutageAreClassedApart() async throws {
        for (status, expected) in [(503, ErrorClass.transient), (429, .transient), (401, .misconfigured), (200, .misconfigured)] {
            let http = ScriptedHTTPClient()
            http.on("POST", Self.url) { _ in ScriptedHTTPClient.json(status, status == 200 ? #"{"access_token":"not-what-was-asked"}"# : "{}") }
            let failure = await #expect(throws: AuthFailure.self) {
                _ = try await RegistryExchange(environment: [:], http: http).refreshToken(registry: "acr.example.io", token: token, caFile: nil)
            }
            #expect(failure?.errorClass == expected, "HTTP \(status)")
            #expect(failure?.remedy.contains("refused the token exchange (HTTP \(status))") == true && failure?.remedy.contains("Zq8") == false)
        }
    }

    /// Plain http to a registry that is not on loopback is refused by the gate before any byte
    /// is sent; a transport failure is transient and says nothing was changed.
    @Test func theTokenGoesOnlyWhereTheGateAllows() async throws {
        let http = ScriptedHTTPClient()
        let refused = await #expect(throws: AuthFailure.self) {
            _ = try await RegistryExchange(environment: [:], http: http).refreshToken(registry: "acr.example.io", scheme: "http", token: token, caFile: nil)
        }
        #expect(refused?.errorClass == .misconfigured && http.requests.isEmpty, "\(String(describing: refused))")
        let down = await #expect(throws: AuthFailure.self) {
            _ = try await RegistryExchange(environment: [:], http: http).refreshToken(registry: "acr.example.io", token: token, caFile: nil)
        }
        #expect(down?.errorClass == .transient && down?.remedy.hasSuffix("nothing was changed") == true && down?.remedy.contains("Zq8") == false,
                "\(String(describing: down))")
    }
}
