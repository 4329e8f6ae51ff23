/// The port every provider kind implements: sign in, renew silently, revoke.
///
/// Adapters hold no state between calls; the store is the memory. They reach the network
/// only through AuthDeckHTTP/AuthDeckOAuth and throw `AuthFailure` for provider failures.
public protocol ProviderAdapter: Sendable {
    var profile: ProviderProfile { get }
    var capabilities: ProviderCapabilities { get }

    /// Runs an interactive (or credential-based) sign-in with `flow`.
    func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult

    /// Renews without a person, returning the account's new credentials (the caller
    /// commits them before anything uses them). `scopes` empty means the profile's. The
    /// adapter hands `hearing` to the token endpoint that spends the refresh token, which
    /// tells it of the rotated one as soon as the answer is read (`RotationHearing`).
    func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials

    /// Tells the server to forget the account's grant (RFC 7009 and kin); throws
    /// `RevocationUnavailable` when this provider offers no way to.
    func revoke(_ stored: StoredAccount) async throws

    /// As `revoke`, for a sign-out that also clears the registration (`--clear-registration`):
    /// a provider that holds one at the server deletes it there too.
    func revoke(_ stored: StoredAccount, clearingRegistration: Bool) async throws

    /// Asks the provider whether credentials that look valid still work (SharePoint cookies
    /// can expire server-side early); nil when the provider has no such check.
    func probe(_ stored: StoredAccount) async throws -> Bool?

    /// Headers a request made with this provider's credentials carries besides the credential
    /// (OAM's identity-domain header), for `authdeck request`.
    var resourceHeaders: [ResourceHeader] { get }

    /// Whether a sign-out can keep a registration (a remembered username and preferences):
    /// what `--clear-registration` and the deck's `c` apply to.
    var keepsRegistration: Bool { get }

    /// What of the account stays after a sign-out, or nil when nothing does (the default).
    func keptAfterSignOut(_ stored: StoredAccount, clearRegistration: Bool) -> Credentials?

    /// Whether signing in with `flow` for `username` needs the user's password (the password
    /// flow; an OAM mobile client's first registration with any flow): front ends ask only then.
    func needsPassword(for flow: SignInFlow, username: String?) -> Bool
}

extension ProviderAdapter {
    /// Renews with no one listening for a rotated refresh token (tests, and callers that
    /// commit nothing).
    public func renew(_ stored: StoredAccount, scopes: [String]) async throws -> Credentials {
        try await renew(stored, scopes: scopes, hearing: nil)
    }

    public func probe(_ stored: StoredAccount) async throws -> Bool? { nil }
    public func revoke(_ stored: StoredAccount, clearingRegistration: Bool) async throws { try await revoke(stored) }
    public var resourceHeaders: [ResourceHeader] { [] }
    public var keepsRegistration: Bool { false }
    public func keptAfterSignOut(_ stored: StoredAccount, clearRegistration: Bool) -> Credentials? { nil }
    public func needsPassword(for flow: SignInFlow, username: String?) -> Bool { flow == .password }
}

/// One header name and value an adapter wants on resource requests.
public struct ResourceHeader: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// Extra inputs some flows take.
public struct SignInOptions: Sendable {
    public var username: String?
    /// For the password grant; read from a file, the environment or a prompt, never argv.
    public var password: Secret?
    /// Whether to try starting a browser (false: print the URL only).
    public var openBrowser: Bool
    /// How long to wait for a person before giving up.
    public var timeout: TimeSpan

    public init(username: String? = nil, password: Secret? = nil, openBrowser: Bool = true, timeout: TimeSpan = .minutes(10)) {
        self.username = username
        self.password = password
        self.openBrowser = openBrowser
        self.timeout = timeout
    }
}
