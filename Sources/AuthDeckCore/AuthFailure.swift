/// A sign-in, renewal or revocation that failed, classified, with the sentence to show.
///
/// Adapters and flows throw this and nothing else for provider-side failures, so every
/// front end handles one type. `detail` is authdeck's own wording — never a credential,
/// never raw server output beyond short codes.
public struct AuthFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var errorClass: ErrorClass
    /// The provider's code (`invalid_grant`, `AADSTS50076`, `http 503`, `network`).
    public var code: String
    /// What the person should do.
    public var remedy: String
    /// The OAuth `error` value of the answer, kept whatever `code` a provider's refinement
    /// shows instead: the device flow keeps polling on `authorization_pending` and `slow_down`
    /// even when Azure AD's AADSTS70016 is the code a person sees.
    public var oauthError: String?
    /// False when the provider was never asked: the failure only restates what the account
    /// holds (no refresh token, no app secret to renew with), which its derived state already
    /// says. Such a failure is not recorded as the account's last error: recorded, one failed
    /// `refresh` would turn an "expiring soon" account into one that needs a sign-in and run
    /// `on_needs_sign_in` where a fresh store runs `on_expiring`.
    public var providerAsked: Bool

    public init(_ errorClass: ErrorClass, code: String, remedy: String, oauthError: String? = nil, providerAsked: Bool = true) {
        self.providerAsked = providerAsked
        self.errorClass = errorClass
        self.code = code
        self.remedy = remedy
        self.oauthError = oauthError
    }

    public var description: String { "\(remedy) [\(code)]" }

    /// The error as it is recorded on the account.
    public func accountError(at: Instant) -> AccountError {
        AccountError(errorClass: errorClass, code: code, remedy: remedy, at: at)
    }
}
