/// What an OAM provider lets a user keep, and what it keeps by default (the mobile SDK's
/// OfflineAuthAllowed, MaxLoginAttempts, AutoLogin/RememberCredentials/RememberUsername
/// Allowed and Default settings).
public struct OAMCredentialOptions: Equatable, Sendable {
    /// What is kept after a sign-in. Priority when several are on by default:
    /// auto-login > remember credentials > remember username.
    public enum Remembrance: String, CaseIterable, Sendable {
        /// Username and password; renewal may sign in again with them without asking.
        case autoLogin = "auto"
        /// Username and password, used by `login` without asking.
        case credentials
        /// The username only.
        case username
        case none
    }

    public var offlineAuthAllowed: Bool
    public var maxLoginAttempts: Int
    public var autoLoginAllowed: Bool
    public var rememberCredentialsAllowed: Bool
    public var rememberUsernameAllowed: Bool
    public var autoLoginDefault: Bool
    public var rememberCredentialsDefault: Bool
    public var rememberUsernameDefault: Bool

    public init(_ options: [String: String]) {
        func flag(_ k: String) -> Bool { options[k] == "true" }
        offlineAuthAllowed = flag("offline_auth_allowed")
        maxLoginAttempts = max(1, Int(options["max_login_attempts"] ?? "") ?? 1)
        autoLoginAllowed = flag("auto_login_allowed")
        rememberCredentialsAllowed = flag("remember_credentials_allowed")
        rememberUsernameAllowed = flag("remember_username_allowed")
        autoLoginDefault = flag("auto_login_default")
        rememberCredentialsDefault = flag("remember_credentials_default")
        rememberUsernameDefault = flag("remember_username_default")
    }

    public func allows(_ r: Remembrance) -> Bool {
        switch r {
        case .autoLogin: return autoLoginAllowed
        case .credentials: return rememberCredentialsAllowed
        case .username: return rememberUsernameAllowed
        case .none: return true
        }
    }

    /// The remembrance to apply: the user's explicit choice when allowed (nil when it is
    /// not), else the first allowed default in priority order.
    public func remembrance(requested: Remembrance?) -> Remembrance? {
        if let requested { return allows(requested) ? requested : nil }
        if autoLoginAllowed && autoLoginDefault { return .autoLogin }
        if rememberCredentialsAllowed && rememberCredentialsDefault { return .credentials }
        if rememberUsernameAllowed && rememberUsernameDefault { return .username }
        return Remembrance.none
    }
}
