import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckHTTP
import AuthDeckProviders

/// The one composition of provider adapters: the network, clock, browser and store, as every
/// command, `watch` and the deck hand them to adapters.
public struct ProviderWiring: Sendable {
    /// Builds the adapter of a configured provider; the seam tests replace to drive the use
    /// cases with adapters of their own (the real one: `ProviderRegistry`).
    public typealias AdapterFactory = @Sendable (ProviderProfile, DeckConfig, AdapterContext) throws -> any ProviderAdapter

    public let store: DeckStore
    public let clock: any WallClock
    public let environment: [String: String]
    /// The network the real adapters talk over: libcurl, or a transport of a test's own
    /// (`ScriptedHTTPClient`), so a use case runs with the real adapters below the binary.
    let http: any HTTPClient
    /// The browser sign-ins open; nil: `BrowserOpener` without authdeck's secrets (`browser(_:)`).
    let opener: (any URLOpening)?
    let makeAdapter: AdapterFactory

    public init(store: DeckStore, clock: any WallClock, environment: [String: String], http: (any HTTPClient)? = nil,
                browser: (any URLOpening)? = nil, adapters: AdapterFactory? = nil) {
        self.store = store
        self.clock = clock
        self.environment = environment
        self.http = http ?? Self.network(environment)
        self.opener = browser
        makeAdapter = adapters ?? { profile, config, context in
            try ProviderRegistry.adapter(for: profile, context: context, config: config.providers)
        }
    }

    /// The wiring over `network`'s ports (the real ones where nil).
    public init(store: DeckStore, clock: any WallClock, environment: [String: String], network: NetworkPorts,
                adapters: AdapterFactory? = nil) {
        self.init(store: store, clock: clock, environment: environment, http: network.http, browser: network.browser, adapters: adapters)
    }

    /// The real network: libcurl, with the proxy variables of `environment`.
    static func network(_ environment: [String: String]) -> any HTTPClient {
        CurlHTTPClient(userAgent: "authdeck/\(AuthDeckCore.version)", environment: environment)
    }

    /// Begins loading the real network's library on a thread of its own, for a process about to
    /// renew (the front said so: `HandoverHint`), so the load overlaps the start and the lease.
    public static func warmNetwork() {
        CurlLibrary.preload()
    }

    /// What adapters of `config`'s providers are built with. The browser gets the
    /// environment without authdeck's secrets, the `client_secret_env` variables of `config`
    /// included; the adapters themselves read those from `environment`.
    public func adapterContext(_ config: DeckConfig) -> AdapterContext {
        Self.adapterContext(store: store, config: config, clock: clock, environment: environment, network: NetworkPorts(http: http, browser: opener))
    }

    /// The adapters' world with `store`, or, before any store exists, with no accounts, no
    /// provider secrets and a cache that keeps nothing.
    public static func adapterContext(store: DeckStore?, config: DeckConfig, clock: any WallClock,
                                      environment: [String: String], network ports: NetworkPorts = NetworkPorts()) -> AdapterContext {
        AdapterContext(http: ports.http ?? network(environment),
                       clock: clock, documents: store.map { $0 as any DocumentCache } ?? UncachedDocuments(),
                       browser: ports.browser ?? BrowserOpener(environment: environment, withholdingSecretsOf: config.providers),
                       environment: environment, accounts: store, leaseHolder: DeckStore.leaseHolder,
                       providerSecrets: store)
    }

    /// The adapter of the provider `providerId` of `config`; a provider gone from the config
    /// is a misconfiguration naming the ones there are.
    public func adapter(forProvider providerId: String, config: DeckConfig) throws -> any ProviderAdapter {
        guard let profile = config.provider(providerId) else {
            throw AuthFailure(.misconfigured, code: "unknown_provider", remedy: Self.unknownProvider(providerId, in: config))
        }
        return try adapter(for: profile, config: config)
    }

    /// The adapter a sign-out asks to revoke: nil only for a provider gone from the config
    /// (then only local credentials can go). A configured provider whose adapter cannot be
    /// built (its `client_secret_env` unset) throws: that is a revocation that failed, and a
    /// failed revocation deletes nothing, so the grant is never left alive at the server with
    /// nothing here to revoke it with.
    public func signOutAdapter(forProvider providerId: String, config: DeckConfig?) throws -> (any ProviderAdapter)? {
        guard let config, let profile = config.provider(providerId) else { return nil }
        return try adapter(for: profile, config: config)
    }

    /// "no provider "x" in PATH (configured: a, b)": what the CLI and the deck say alike.
    public static func unknownProvider(_ id: String, in config: DeckConfig) -> String {
        let ids = config.providers.map(\.id)
        let known = ids.isEmpty ? "none is configured yet; `authdeck providers` says how to add one"
                                : "configured: " + ids.joined(separator: ", ")
        return "no provider \"\(TerminalText.inert(id))\" in \(config.path) (\(known))"
    }

    /// The adapter of a configured provider (`profile` is one of `config`'s).
    public func adapter(for profile: ProviderProfile, config: DeckConfig) throws -> any ProviderAdapter {
        try makeAdapter(profile, config, adapterContext(config))
    }

    public func renewer(_ config: DeckConfig) -> RenewalCoordinator {
        RenewalCoordinator(store: store, clock: clock, holder: DeckStore.leaseHolder, skew: config.statePolicy.clockSkew)
    }

    /// What `authdeck request` sends through: the account's adapter, its provider's TLS
    /// settings and a renewer. Throws the provider's `AuthFailure` for unusable TLS settings.
    public func requester(with adapter: any ProviderAdapter, config: DeckConfig, scopes: [String]) throws -> ResourceRequester {
        let base = adapterContext(config)
        let tls = try ProviderRegistry.tlsOptions(for: adapter.profile, context: base)
        return ResourceRequester(adapter: adapter, renewer: renewer(config), http: base.http, tls: tls, scopes: scopes)
    }

    /// Opens `url` in the person's browser (`$BROWSER`, else xdg-open); whether one started.
    public func openInBrowser(_ url: String, config: DeckConfig) -> Bool {
        browser(config).open(url) != nil
    }

    /// The browser, started without authdeck's secrets (`ChildEnvironment`) in its environment.
    func browser(_ config: DeckConfig) -> any URLOpening {
        opener ?? BrowserOpener(environment: environment, withholdingSecretsOf: config.providers)
    }
}
