import Foundation
import AuthDeckCore
import AuthDeckOAuth

/// Microsoft's error bodies, classified as Microsoft says to: by `error`, then `suberror`,
/// then `error_codes` (AADSTS) — never by `error_description`. The remedy sentences are the
/// ones the TUI and CLI show.
enum AzureADErrors {
    static let remedies: [Int: (ErrorClass, String)] = [
        50076: (.needsInteraction, "MFA required — sign in again in the browser"),
        50078: (.needsInteraction, "MFA expired — sign in again"),
        50079: (.needsInteraction, "MFA enrollment required — sign in in the browser to enroll"),
        50058: (.needsInteraction, "no single sign-on session — sign in again"),
        50173: (.needsInteraction, "the grant was revoked (password change or an administrator) — sign in again"),
        65001: (.needsInteraction, "consent is missing — sign in again and accept the permissions"),
        70000: (.needsInteraction, "the refresh token is no longer valid — sign in again"),
        70008: (.needsInteraction, "the grant expired or was revoked — sign in again"),
        700082: (.needsInteraction, "the refresh token expired after 90 days of inactivity — sign in again"),
        70043: (.needsInteraction, "the sign-in frequency policy requires a new sign-in"),
        50132: (.needsInteraction, "the session is no longer valid (password changed?) — sign in again"),
        50133: (.needsInteraction, "the session is no longer valid (password changed?) — sign in again"),
        50055: (.needsInteraction, "the password has expired — change it, then sign in again"),
        54005: (.needsInteraction, "the authorization code was already redeemed — start the sign-in again"),
        501481: (.needsInteraction, "the PKCE check failed — start the sign-in again (report a bug if it repeats)"),
        50126: (.needsInteraction, "the username or password is wrong"),
        50020: (.needsInteraction, "this user does not belong to the provider's tenant — sign in with an account of that tenant"),
        700016: (.misconfigured, "the application (client_id) is not known in this tenant — check the provider config"),
        7000215: (.misconfigured, "the client secret is wrong — check client_secret_file or client_secret_env"),
        700027: (.misconfigured, "the client certificate assertion was rejected — check the certificate and key files"),
        90002: (.misconfigured, "the tenant does not exist — check options.tenant"),
    ]

    /// Refines the generic classification of an error body.
    static func refine(_ json: JSONObject, _ generic: AuthFailure) -> AuthFailure {
        let codes = (json.array("error_codes") ?? []).compactMap { $0.number?.integer.map(Int.init) }
        let suberror = json.string("suberror")
        if let code = codes.first, let (cls, remedy) = remedies[code] {
            return AuthFailure(cls, code: "AADSTS\(code)", remedy: remedy)
        }
        switch suberror {
        case "basic_action", "additional_action", "message_only", "user_password_expired", "consent_required":
            return AuthFailure(.needsInteraction, code: generic.code + "/" + suberror!, remedy: "the provider needs you to sign in interactively")
        case "bad_token", "token_expired":
            return AuthFailure(.needsInteraction, code: generic.code + "/" + suberror!, remedy: "the sign-in is no longer valid — sign in again")
        case "protection_policy_required", "client_mismatch", "device_authentication_failed":
            return AuthFailure(.misconfigured, code: generic.code + "/" + suberror!, remedy: "a Conditional Access policy blocks this client (\(suberror!))")
        default:
            return codes.first.map { AuthFailure(generic.errorClass, code: "AADSTS\($0)", remedy: generic.remedy) } ?? generic
        }
    }
}
