import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// What every adapter is built with: its ways out to the world, all injected.
public struct AdapterContext: Sendable {
    public var http: any HTTPClient
    public var clock: any WallClock
    public var documents: any DocumentCache
    public var sleeper: any Sleeper
    public var browser: (any URLOpening)?
    /// For secrets named by environment variable (`client_secret_env`).
    public var environment: [String: String]
    /// The accounts, for adapters that build on another provider's accounts (SharePoint
    /// uses a signed-in Azure AD account's refresh token). Read-only use.
    public var accounts: (any AccountStore)?
    /// This process's renewal-lease holder name, for adapters that renew another account.
    public var leaseHolder: String
    /// Provider-level secrets (imported client certificates).
    public var providerSecrets: (any ProviderSecretStore)?

    public init(http: any HTTPClient, clock: any WallClock, documents: any DocumentCache, sleeper: any Sleeper = TaskSleeper(),
                browser: (any URLOpening)?, environment: [String: String], accounts: (any AccountStore)? = nil,
                leaseHolder: String = "", providerSecrets: (any ProviderSecretStore)? = nil) {
        self.http = http
        self.clock = clock
        self.documents = documents
        self.sleeper = sleeper
        self.browser = browser
        self.environment = environment
        self.accounts = accounts
        self.leaseHolder = leaseHolder
        self.providerSecrets = providerSecrets
    }
}
