import AuthDeckCore

/// authdeck's settings and providers, as read from config.toml.
public struct DeckConfig: Equatable, Sendable {
    /// The file this came from (whether or not it exists).
    public var path: String
    /// False when no config file exists yet: authdeck runs with defaults and no providers.
    public var fileExists: Bool
    public var statePolicy: StatePolicy
    public var pruneSettings: PruneSettings
    public var providers: [ProviderProfile]
    /// `[keys]`: deck action name → the key the user wants for it.
    public var keys: [String: String] = [:]
    /// `[hooks]`: what `authdeck watch` runs on account events.
    public var hooks = DeckHooks()
    /// `[[credential]]`: which account answers git, kubectl and docker for which URL.
    public var credentials: [CredentialRoute] = []
    /// `[[agent]]`: the agent's standing allow-list (host pattern, accounts, scopes, expiry).
    public var agentAllows: [AgentAllow] = []
    /// `[agent_confirm] command`: what `authdeck agent` runs to ask the person when it has no
    /// terminal (argv split as words; its first word out: once, connection or deny).
    public var agentConfirmCommand: String?

    public init(path: String, fileExists: Bool, statePolicy: StatePolicy = .standard,
                pruneSettings: PruneSettings = .standard, providers: [ProviderProfile] = []) {
        self.path = path
        self.fileExists = fileExists
        self.statePolicy = statePolicy
        self.pruneSettings = pruneSettings
        self.providers = providers
    }

    /// The providers as the prune policy must see them: nil when there is no config file,
    /// so a missing or moved file never makes every account "provider removed".
    public var knownProviders: [ProviderProfile]? { fileExists ? providers : nil }

    public func provider(_ id: String) -> ProviderProfile? { providers.first { $0.id == id } }
}
