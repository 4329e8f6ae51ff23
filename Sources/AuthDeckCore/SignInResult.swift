/// Who signed in and what they got: the outcome of a successful interactive sign-in.
public struct SignInResult: Equatable, Sendable {
    /// The provider's stable key for the user (Azure `home_account_id`, OIDC `iss`+`sub`…).
    public var subject: String
    public var username: String
    public var displayName: String
    public var realm: String?
    public var credentials: Credentials

    public init(subject: String, username: String, displayName: String, realm: String?, credentials: Credentials) {
        self.subject = subject
        self.username = username
        self.displayName = displayName
        self.realm = realm
        self.credentials = credentials
    }
}
