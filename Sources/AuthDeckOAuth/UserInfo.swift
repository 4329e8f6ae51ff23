import Foundation
import AuthDeckCore
import AuthDeckHTTP

/// The OIDC userinfo endpoint: names for accounts whose id_token carries none.
public enum UserInfo {
    /// Fetches the claims with the access token; nil when the endpoint fails (names are
    /// a nicety, never a reason to fail a sign-in).
    public static func fetch(_ endpoint: String, accessToken: Secret, http: any HTTPClient) async -> [String: String]? {
        let request = HTTPRequest(url: endpoint, headers: [HTTPHeader("Authorization", "Bearer \(accessToken.exposedValue)"),
                                                           HTTPHeader("Accept", "application/json")])
        guard let response = try? await http.send(request), response.status == 200,
              let json = JSONObject(bytes: response.body) else { return nil }
        return json.scalarStrings
    }
}
