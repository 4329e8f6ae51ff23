import Foundation
import AuthDeckTestSupport

/// An MSAL token cache as Azure CLI writes it (`msal_token_cache.json`), with three users:
/// alice (tenant one, a refresh token for Azure CLI's client), bob (tenant one, a refresh token
/// for another client) and carol (tenant two, no refresh token: a half-finished sign-in).
enum MSALCacheSample {
    static let azureCLI = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
    static let tenantOne = "11111111-0000-0000-0000-000000000001"
    static let tenantTwo = "22222222-0000-0000-0000-000000000002"
    static let env = "login.microsoftonline.com"

    static func account(_ user: String, tenant: String) -> (String, [String: String]) {
        let home = "\(user)-oid.\(tenant)"
        return ("\(home)-\(env)-\(tenant)", ["home_account_id": home, "environment": env, "realm": tenant,
                                              "username": "\(user)@contoso.com", "authority_type": "MSSTS"])
    }

    static func refreshToken(_ user: String, tenant: String, client: String) -> (String, [String: String]) {
        let home = "\(user)-oid.\(tenant)"
        return ("\(home)-\(env)-refreshtoken-\(client)--", ["home_account_id": home, "environment": env, "credential_type": "RefreshToken",
                                                            "client_id": client, "secret": "msal-rt-\(user)-Zq8"])
    }

    /// The cache's JSON text.
    static var text: String {
        let accounts = [account("alice", tenant: tenantOne), account("bob", tenant: tenantOne), account("carol", tenant: tenantTwo)]
        let rts = [refreshToken("alice", tenant: tenantOne, client: azureCLI), refreshToken("bob", tenant: tenantOne, client: "other-client")]
        let root: [String: Any] = ["Account": Dictionary(uniqueKeysWithValues: accounts), "RefreshToken": Dictionary(uniqueKeysWithValues: rts),
                                   "AccessToken": [String: Any](), "IdToken": [String: Any](), "AppMetadata": [String: Any]()]
        return String(decoding: try! JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The cache written into `dir` with mode 0600, as Azure CLI leaves it; its path.
    static func write(in dir: TempDirectory) throws -> String {
        let path = dir.file("msal_token_cache.json")
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return path
    }
}
