import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckConfig
import AuthDeckProviders
import AuthDeckApp

/// The composition root of one CLI invocation: resolves paths, opens the store and reads the
/// config on demand, and hands out the clock. Commands get everything from here.
///
/// Its ports — the process environment (which names the store and config), the config, the
/// clock, the network and the browser (`NetworkPorts`), the adapters and the output — are the
/// process's own unless given, as gh's factory hands a command its IO, config and HTTP client,
/// so a command that takes its context (`run(in:)`) is tested in-process.
struct DeckContext: Sendable {
    let environment: [String: String]
    let location: StoreLocation
    /// Whether the store path was named (`--store`, `AUTHDECK_STORE`) rather than the default.
    let storeExplicit: Bool
    let configPath: String
    let configExplicit: Bool
    let clock: any WallClock
    /// Where the command's words go.
    let output: any CommandOutput
    /// Builds provider adapters; nil: the real ones over `network` (`ProviderWiring`).
    let adapters: ProviderWiring.AdapterFactory?
    /// The network and browser the adapters and use cases reach (the real ones where nil).
    let network: NetworkPorts
    /// The config commands read; nil: config.toml at `configPath`, read when asked for.
    let config: DeckConfig?

    init(_ global: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(storeFlag: global.store, configFlag: global.config, environment: environment)
    }

    init(storeFlag: String?, configFlag: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
         clock: (any WallClock)? = nil, output: any CommandOutput = StandardStreams(), adapters: ProviderWiring.AdapterFactory? = nil,
         network: NetworkPorts = NetworkPorts(), config: DeckConfig? = nil) {
        self.environment = environment
        self.location = StoreLocation.resolve(storeFlag: storeFlag, environment: environment)
        self.storeExplicit = storeFlag != nil || !(environment["AUTHDECK_STORE"] ?? "").isEmpty
        let resolved = XDG.configFile(flag: configFlag, environment: environment)
        self.configPath = resolved.path
        self.configExplicit = resolved.explicit
        self.clock = clock ?? Self.clock(environment)
        self.output = output
        self.adapters = adapters
        self.network = network
        self.config = config
    }

    /// The system clock, or, in a debug build, one stopped at `AUTHDECK_TEST_NOW` (seconds
    /// since the epoch) so the screen oracle's frames hold still: countdowns that tick make
    /// every capture differ. Never in a release: a clock set a month ahead renewed a token and
    /// stored its month-ahead expiry, and the dead token was served as valid afterwards.
    static func clock(_ environment: [String: String]) -> any WallClock {
        #if DEBUG
        if let text = environment["AUTHDECK_TEST_NOW"], let seconds = Int64(text) { return FixedClock(Instant(secondsSinceEpoch: seconds)) }
        #endif
        return SystemClock()
    }

    /// Opens the store, printing its non-fatal warnings (loose modes) to stderr.
    ///
    /// Only commands that add accounts (sign-ins, imports, the deck) pass `creating`: a
    /// mistyped `--store` given to a reading command must be an error, not directories and an
    /// empty store answering "No accounts yet". A new store is announced with its path.
    func openStore(creating: Bool = false) throws -> DeckStore {
        if !creating, !storeExists { throw noStore() }
        let store = try DeckStore.open(location, clock: clock, keys: keySources())
        for warning in store.warnings { output.warning(warning) }
        if store.created { output.note("authdeck: created a new store at \(location.databasePath) (its key: \(location.keyFilePath))") }
        return store
    }

    /// The store when there is one; nil when the default store was never created (a reading
    /// command then shows an empty result). A named path that does not exist is an error.
    func openStoreIfPresent() throws -> DeckStore? {
        guard storeExists else {
            if storeExplicit { throw noStore() }
            return nil
        }
        return try openStore()
    }

    /// Whether anything is at the store path (a dangling link or a FIFO counts: opening it
    /// then names what is wrong).
    var storeExists: Bool {
        var st = stat()
        return lstat(location.databasePath, &st) == 0
    }

    func noStore() -> CLIError {
        CLIError(message: "no store at \(TerminalText.inert(location.databasePath)) (nothing was created)"
                     + (storeExplicit ? "; check the path given by --store or AUTHDECK_STORE" : "")
                     + " — `authdeck login PROVIDER` or an import creates one", status: 1)
    }

    /// The key sources as this process can reach them (key file path, passphrase file or
    /// terminal, Secret Service); `newPassphraseFile` is a passphrase being chosen.
    func keySources(newPassphraseFile: String? = nil) -> KeySources {
        let source = PassphraseSource(environment: environment, newPassphraseFile: newPassphraseFile)
        return KeySources(keyFile: KeyFile(path: location.keyFilePath), passphrase: { try source.passphrase($0) })
    }

    /// The config given, else config.toml as found through the environment (`XDG`).
    func loadConfig() throws -> DeckConfig {
        if let config { return config }
        return try ConfigLoader.load(path: configPath, required: configExplicit, home: XDG.home(environment))
    }

    /// The derived view of every account now (`DeckAssessment.read`).
    func assess(_ store: DeckStore, _ config: DeckConfig) throws -> DeckAssessment {
        try DeckAssessment.read(store, config: config, now: clock.now())
    }

    /// The adapter for a configured provider, wired to the real network, clock and cache.
    func adapter(for providerId: String, config: DeckConfig, store: DeckStore) throws -> any ProviderAdapter {
        guard let profile = config.provider(providerId) else { throw CLIError.unknownProvider(providerId, in: config) }
        return try wiring(store).adapter(for: profile, config: config)
    }

    func wiring(_ store: DeckStore) -> ProviderWiring {
        ProviderWiring(store: store, clock: clock, environment: environment, network: network, adapters: adapters)
    }

    /// The adapters' world with `store` (nil before any store exists), over this context's ports.
    func adapterContext(store: DeckStore?, config: DeckConfig) -> AdapterContext {
        ProviderWiring.adapterContext(store: store, config: config, clock: clock, environment: environment, network: network)
    }

    /// Config, store and the account ACCOUNT names: what every single-account command starts with.
    func openAccount(_ query: String) throws -> (config: DeckConfig, store: DeckStore, stored: StoredAccount) {
        let config = try loadConfig()
        let store = try openStore()
        return (config, store, try resolveAccount(query, in: store))
    }

    /// Resolves ACCOUNT or fails with exit status 2, listing candidates when ambiguous.
    /// Matches on the account rows alone, then reads only the matched account's credentials.
    func resolveAccount(_ query: String, in store: DeckStore) throws -> StoredAccount {
        let accounts = try store.accountRows(includeQuarantined: false)
        switch AccountMatcher.resolve(query, in: accounts, defaultAccount: { try? store.defaultAccount(provider: $0) }) {
        case .found(let account):
            // A name other than the id is matched among rows a keyless writer can hide; answered
            // only when none was (the front hands such a store over too).
            if query != account.id {
                let tampered = try store.tamperedAccountIds()
                if let named = tampered.contains(account.id) ? account.id : tampered.first { throw StoreError.accountTampered(accountId: named) }
            }
            guard let stored = try store.account(id: account.id) else {
                throw CLIError.usage("\(account.id) was removed just now (`authdeck accounts` lists what is left)")
            }
            return stored
        case .ambiguous(let candidates):
            let list = candidates.map { "  \($0.id)  \(TerminalText.inert($0.username)) (\($0.providerId))" }
            // A provider's name with several accounts stands for its default once one is set.
            let orDefault = accounts.contains { $0.providerId == query }
                ? "\n(or make one \(TerminalText.inert(query))'s default, and \"\(TerminalText.inert(query))\" names it: `authdeck use ID`)" : ""
            throw CLIError.usage("\"\(TerminalText.inert(query))\" matches \(candidates.count) accounts; use one of these ids:\n"
                                     + list.joined(separator: "\n") + orDefault)
        case .defaultMissing(let provider, let id):
            // Exit 3, as an account that needs a person: nothing answers for the provider until
            // someone with the key chooses again (the row went without `logout`, which clears it).
            let p = TerminalText.inert(provider)
            throw CLIError.needsSignIn("\(p)'s default account \(TerminalText.inert(id)) is gone from the store (deleted without "
                                           + "`authdeck logout`), so \"\(TerminalText.inert(query))\" names no account: choose one with "
                                           + "`authdeck use ACCOUNT` (`authdeck accounts` lists them) or `authdeck use --clear \(p)`")
        case .notFound:
            // What the user typed is echoed inert, as server text is: it may hold escape sequences.
            // A near miss of an id, a username, a provider or PROVIDER/USERNAME is offered back.
            let names = accounts.flatMap { [$0.id, $0.username, $0.providerId, $0.providerId + "/" + $0.username] }
            let guess = Spelling.nearest(query, in: names).map { "; did you mean \"\(TerminalText.inert($0))\"?" } ?? ""
            throw CLIError.usage("no account matches \"\(TerminalText.inert(query))\"\(guess) (`authdeck accounts` lists them)")
        }
    }
}
