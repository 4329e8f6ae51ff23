/// The last failure recorded against an account, with the sentence a person should see.
public struct AccountError: Equatable, Hashable, Sendable, Codable {
    public var errorClass: ErrorClass
    /// The provider's machine code (`invalid_grant`, `AADSTS50076`, `190/463`), for support.
    public var code: String
    /// What to do about it, in words ("MFA required — sign in again in the browser").
    public var remedy: String
    public var at: Instant

    public init(errorClass: ErrorClass, code: String, remedy: String, at: Instant) {
        self.errorClass = errorClass
        self.code = code
        self.remedy = remedy
        self.at = at
    }
}
