import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// An Azure Container Registry's exchange: the account's Microsoft Entra token (for Azure
/// Resource Manager) becomes a registry refresh token at `https://REGISTRY/oauth2/exchange`,
/// what `az acr login` hands docker — so docker pulls with authdeck's sign-in and keeps none
/// of its own.
///
/// Over https, TLS verified (against the entry's `ca_file` for a private registry), or plain
/// http where the entry names a registry on this machine's loopback that way (the gate allows
/// no other); the Entra token is redacted from any error.
public struct RegistryExchange: Sendable {
    let http: any HTTPClient

    /// `http` nil: libcurl with the proxy variables of `environment` (`ProviderWiring`'s network).
    public init(environment: [String: String], http: (any HTTPClient)? = nil) {
        self.http = http ?? ProviderWiring.network(environment)
    }

    /// The registry refresh token for `registry` (`host[:port]`), asked over `scheme` (the
    /// `[[credential]]` entry's).
    public func refreshToken(registry: String, scheme: String = "https", token: AccessToken, caFile: String?) async throws -> Secret {
        let url = "\(scheme == "http" ? "http" : "https")://\(registry)/oauth2/exchange"
        var request = HTTPRequest.form(url, [("grant_type", "access_token"), ("service", registry), ("access_token", token.value.exposedValue)],
                                       headers: [HTTPHeader("Accept", "application/json")])
        request.tls.caFile = caFile
        // The Entra token goes to the registry the route names, and nowhere else.
        request.passage = SecretPassage([.accessToken], home: GrantHome(issuer: nil, origins: [url].compactMap(GrantHome.origin(of:))))
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw AuthFailure(error.isTransient ? .transient : .misconfigured, code: "http", remedy: "\(error); nothing was changed")
        }
        guard response.status == 200, let refresh = JSONObject(bytes: response.body)?.string("refresh_token"), !refresh.isEmpty else {
            let cls: ErrorClass = response.status == 429 || response.status >= 500 ? .transient : .misconfigured
            throw AuthFailure(cls, code: "http \(response.status)",
                              remedy: "\(registry) refused the token exchange (HTTP \(response.status)); the [[credential]] entry's account "
                                  + "needs a token for https://management.azure.com (scopes = [\"https://management.azure.com/.default\"])")
        }
        return Secret(refresh)
    }
}
