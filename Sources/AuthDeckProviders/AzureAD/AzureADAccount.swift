import Foundation
import AuthDeckCore
import AuthDeckOAuth

/// Who a Microsoft token response is about: `client_info` gives the home account id
/// (`<uid>.<utid>`), the id_token the realm (`tid`), username and display name.
struct AzureADAccount {
    let homeAccountId: String
    let realm: String
    let username: String
    let displayName: String

    /// `client_info` is base64url JSON `{"uid":…,"utid":…}` (sent when `client_info=1`).
    static func homeAccountId(clientInfo: String?) -> String? {
        guard let clientInfo, let bytes = Base64URL.decode(clientInfo), let json = JSONObject(bytes: bytes),
              let uid = json.string("uid"), let utid = json.string("utid") else { return nil }
        return "\(uid).\(utid)"
    }

    init(claims: [String: String], clientInfo: String?) throws {
        guard let tid = claims["tid"], let oid = claims["oid"] else {
            throw AuthFailure(.misconfigured, code: "no_identity", remedy: "the id_token carries no oid/tid; add \"openid\" and \"profile\" to scopes")
        }
        homeAccountId = Self.homeAccountId(clientInfo: clientInfo) ?? "\(oid).\(tid)"
        realm = tid
        username = claims["preferred_username"] ?? claims["upn"] ?? claims["email"] ?? oid
        displayName = claims["name"] ?? ""
    }
}
