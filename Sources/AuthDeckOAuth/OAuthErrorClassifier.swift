import Foundation
import AuthDeckCore

/// Maps an OAuth `error` code to its class and the sentence a person should see.
///
/// Classification is by the code alone — never by `error_description`, whose wording
/// providers change freely (Microsoft says so explicitly).
public enum OAuthErrorClassifier {
    public static func classify(_ code: String) -> (ErrorClass, String) {
        switch code {
        case "invalid_grant":
            return (.needsInteraction, "the sign-in is no longer valid (expired, revoked or already used); sign in again")
        case "interaction_required", "login_required":
            return (.needsInteraction, "the provider needs you to sign in interactively")
        case "consent_required":
            return (.needsInteraction, "consent is needed; sign in again and accept the permissions")
        case "bad_token", "invalid_token":
            return (.needsInteraction, "the token was rejected; sign in again")
        case "expired_token":
            return (.needsInteraction, "the code expired before it was approved; start the sign-in again")
        case "access_denied", "authorization_declined":
            return (.declined, "the sign-in was declined")
        case "invalid_client":
            return (.misconfigured, "the provider rejected the client (client_id or secret); check the provider config")
        case "unauthorized_client":
            return (.misconfigured, "this client may not use this sign-in flow; check the provider config")
        case "invalid_scope":
            return (.misconfigured, "the provider rejected the requested scopes; check \"scopes\" in the config")
        case "unsupported_grant_type", "unsupported_response_type":
            return (.misconfigured, "the provider does not offer this sign-in flow; choose another flow")
        case "invalid_request":
            return (.misconfigured, "the provider rejected the request as malformed; check the provider config")
        case "redirect_uri_mismatch", "invalid_redirect_uri":
            return (.misconfigured, "the redirect URI is not registered with the provider; check the redirect settings")
        case "server_error", "temporarily_unavailable":
            return (.transient, "the provider is having trouble; nothing was changed, try again later")
        case OAuthErrorCode.malformed:
            return (.misconfigured, "the provider refused with an error code that is not an OAuth code (control characters, quotes or too long); check the provider's endpoints")
        case OAuthErrorCode.redacted:
            return (.misconfigured, "the provider refused with an error code that repeats a secret authdeck sent; check the provider's endpoints")
        default:
            return (.misconfigured, "the provider refused with \"\(TerminalText.inert(String(code.prefix(60))))\"")
        }
    }

    /// The `AuthFailure` for an OAuth error body, with a short, inert, secret-free excerpt of
    /// the server's description appended (it often names the real problem). The server's
    /// `error` is kept only as `OAuthErrorCode.sanitized` allows, in `code` and `oauthError`.
    ///
    /// `password`: the request was a password grant, where `invalid_grant` means the username
    /// or password was not accepted — not the "no longer valid" of a spent refresh token.
    public static func failure(code raw: String, description: String?, redacting secrets: [String],
                               password: Bool = false) -> AuthFailure {
        let code = OAuthErrorCode.sanitized(raw, redacting: secrets)
        var (cls, remedy) = classify(code)
        if password, code == "invalid_grant" {
            remedy = "the username or password was not accepted; check them and sign in again"
        }
        guard var said = description?.trimmingWhitespace(), !said.isEmpty else {
            return AuthFailure(cls, code: code, remedy: remedy, oauthError: code)
        }
        for secret in secrets where secret.count >= 4 { said = said.replacingAll(secret, with: "‹redacted›") }
        said = TerminalText.inert(String(said.split(whereSeparator: \.isNewline).first ?? ""))
        if said.count > 160 { said = String(said.prefix(160)) + "…" }
        return AuthFailure(cls, code: code, remedy: "\(remedy) (server: \(said))", oauthError: code)
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        return components(separatedBy: target).joined(separator: replacement)
    }
}
