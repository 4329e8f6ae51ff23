import Foundation

/// Microsoft identity platform error bodies, in the exact shape of PROVIDERS.md §1.
struct AADError: Sendable {
    var status: Int
    var error: String
    var code: Int
    var description: String
    var suberror: String?

    /// The JSON body: `error`, `error_description` (AADSTS text + trace lines),
    /// `error_codes`, `timestamp`, `trace_id`, `correlation_id`, `error_uri`, optional `suberror`.
    func body(now: Date) -> [String: Any] {
        let stamp = Self.stamp(now)
        let trace = UUID().uuidString.lowercased(), correlation = UUID().uuidString.lowercased()
        var body: [String: Any] = [
            "error": error,
            "error_description": "AADSTS\(code): \(description)\r\nTrace ID: \(trace)\r\nCorrelation ID: \(correlation)\r\nTimestamp: \(stamp)",
            "error_codes": [code], "timestamp": stamp, "trace_id": trace, "correlation_id": correlation,
            "error_uri": "https://login.microsoftonline.com/error?code=\(code)",
        ]
        if let suberror { body["suberror"] = suberror }
        return body
    }

    static func stamp(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        return f.string(from: date)
    }

    static let pending = AADError(status: 400, error: "authorization_pending", code: 70016,
                                  description: "The provided request has not yet been authorized by the user.")
    static let declined = AADError(status: 400, error: "authorization_declined", code: 70018,
                                   description: "The user declined the authorization request.")
    static let badCode = AADError(status: 400, error: "bad_verification_code", code: 70018,
                                  description: "Invalid verification code.")
    static let expiredCode = AADError(status: 400, error: "expired_token", code: 70019,
                                      description: "Verification code expired.")
    static let slowDown = AADError(status: 400, error: "slow_down", code: 70016, description: "Polling too fast.")
    static let unknownClient = AADError(status: 400, error: "unauthorized_client", code: 700016,
                                        description: "Application was not found in the directory.")
    static let badSecret = AADError(status: 401, error: "invalid_client", code: 7000215, description: "Invalid client secret provided.")
    static let badPassword = AADError(status: 400, error: "invalid_grant", code: 50126,
                                      description: "Error validating credentials due to invalid username or password.")
    static let rtInvalid = AADError(status: 400, error: "invalid_grant", code: 70000,
                                    description: "The provided value for the input parameter 'refresh_token' or 'assertion' is not valid.")
    static let rtRevoked = AADError(status: 400, error: "invalid_grant", code: 70008,
                                    description: "The provided authorization code or refresh token has expired due to inactivity.")
    static let codeRedeemed = AADError(status: 400, error: "invalid_grant", code: 54005,
                                       description: "OAuth2 Authorization code was already redeemed.")
    static let pkceMismatch = AADError(status: 400, error: "invalid_grant", code: 501481,
                                       description: "The Code_Verifier does not match the code_challenge supplied in the authorization request.")
    static let unsupportedGrant = AADError(status: 400, error: "unsupported_grant_type", code: 70003,
                                           description: "The app requested an unsupported grant type.")
    static let badAssertion = AADError(status: 401, error: "invalid_client", code: 700027,
                                       description: "Client assertion failed signature validation.")

    /// The error a forced AADSTS code produces (tests stage 50076 and friends with this).
    static func forced(_ code: Int) -> AADError {
        switch code {
        case 50076: return AADError(status: 400, error: "interaction_required", code: code,
                                    description: "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication.",
                                    suberror: "basic_action")
        case 50078: return AADError(status: 400, error: "interaction_required", code: code, description: "Presented multi-factor authentication has expired.")
        case 50079: return AADError(status: 400, error: "interaction_required", code: code, description: "Due to a configuration change, you must enroll in multi-factor authentication.")
        case 65001: return AADError(status: 400, error: "invalid_grant", code: code, description: "The user or administrator has not consented to use the application.", suberror: "consent_required")
        case 700082: return AADError(status: 400, error: "invalid_grant", code: code, description: "The refresh token has expired due to inactivity.", suberror: "bad_token")
        case 50173: return AADError(status: 400, error: "invalid_grant", code: code, description: "The provided grant has expired due to it being revoked.")
        case 50055: return AADError(status: 401, error: "invalid_grant", code: code, description: "The password is expired.", suberror: "user_password_expired")
        default: return AADError(status: 400, error: "invalid_grant", code: code, description: "Forced error \(code).")
        }
    }
}
