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
/// clock, the network and the browser (`NetworkPorts`), the adapters, the input and the output — are the
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
    /// What the command is given on standard input.
    let input: any CommandInput
    /// Builds provider adapters; nil: the real ones over `network` (`ProviderWiring`).
    let adapters: ProviderWiring.AdapterFactory?
    /// `--no-input`: an ambiguous ACCOUNT is never asked about, whatever the terminal.
    var noInput = false
    /// The network and browser the adapters and use cases reach (the real ones where nil).
    let network: NetworkPorts
    /// The config commands read; nil: config.toml at `configPath`, read when asked for.
    let config: DeckConfig?

    init(_ global: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(storeFlag: global.store, configFlag: global.config, environment: environment)
        self.noInput = global.noInput
    }

    init(storeFlag: String?, configFlag: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
         clock: (any WallClock)? = nil, output: any CommandOutput = StandardStreams(), adapters: ProviderWiring.AdapterFactory? = nil,
         network: NetworkPorts = NetworkPorts(), config: DeckConfig? = nil, input: any CommandInput = ProcessInput()) {
        self.environment = environment
        self.location = StoreLocation.resolve(storeFlag: storeFlag, environment: environment)
        self.storeExplicit = storeFlag != nil || !(environment["AUTHDECK_STORE"] ?? "").isEmpty
        let resolved = XDG.configFile(flag: configFlag, environment: environment)
        self.configPath = resolved.path
        self.configExplicit = resolved.explicit
        self.clock = clock ?? Self.clock(environment)
        self.output = output
        self.input = input
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
    /// `ask`: whether an ambiguous ACCOUNT may be picked on the terminal (not with `--json`).
    func openAccount(_ query: String, ask: Bool = false, holding: Holding? = nil) throws -> (config: DeckConfig, store: DeckStore, stored: StoredAccount) {
        let config = try loadConfig()
        let store = try openStore()
        let fits = holding.map { holding in
            { (account: Account) in
                config.provider(account.providerId).map { holding.fits(ProviderCapabilities.of($0)) } ?? true
            }
        }
        return (config, store, try resolveAccount(query, in: store, asking: ask ? asking(config) : nil, fitting: fits))
    }

    /// What a command needs the account to hold: an ambiguous ACCOUNT is narrowed to the
    /// accounts that could answer it, so `token taro` never offers a SharePoint account whose
    /// pick would then fail, and `cookies taro` naming one account that holds cookies is answered.
    enum Holding {
        case tokens, cookies

        func fits(_ capabilities: ProviderCapabilities) -> Bool {
            self == .tokens ? capabilities.producesTokens : capabilities.producesCookies
        }
    }

    /// Leave to pick an ambiguous ACCOUNT on the terminal, unless `--no-input` forbids it.
    /// `about` names what the account is for (a `[[credential]]` url) in the question.
    func asking(_ config: DeckConfig, about: String? = nil) -> AccountPick.Asking? {
        noInput ? nil : AccountPick.Asking(config: config, about: about)
    }

    /// Resolves ACCOUNT or fails with exit status 2, listing candidates when ambiguous — or,
    /// given `asking` and a person at the terminal, asks which (`AccountPick`).
    /// Matches on the account rows alone, then reads only the matched account's credentials.
    func resolveAccount(_ query: String, in store: DeckStore, asking: AccountPick.Asking? = nil,
                        fitting: ((Account) -> Bool)? = nil) throws -> StoredAccount {
        let accounts = try store.accountRows(includeQuarantined: false)
        let account: Account
        switch AccountMatcher.resolve(query, in: accounts, defaultAccount: { try? store.defaultAccount(provider: $0) }) {
        case .found(let found):
            account = found
        case .ambiguous(let all):
            // Only the accounts that could answer the command, when some can; one is the answer.
            let fit = fitting.map { all.filter($0) } ?? all
            if fit.count == 1 { account = fit[0]; break }
            let candidates = fit.isEmpty ? all : fit
            let width = candidates.map(\.id.count).max() ?? 0
            let list = candidates.map { "  \($0.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(TerminalText.inert($0.username)) (\($0.providerId))" }
            // A provider's name with several accounts stands for its default once one is set.
            let orDefault = accounts.contains { $0.providerId == query }
                ? "\n(or make one \(TerminalText.inert(query))'s default, and \"\(TerminalText.inert(query))\" names it: `authdeck use ID`)" : ""
            let refusal = CLIError.usage("\"\(TerminalText.inert(query))\" matches \(candidates.count) accounts; use one of these ids:\n"
                                             + list.joined(separator: "\n") + orDefault)
            guard let asking, let terminal = AccountPick.terminal() else { throw refusal }
            guard let chosen = try pick(query, among: candidates, of: accounts, on: terminal, store: store, asking: asking) else {
                throw CLIError(message: "no account chosen; nothing changed. " + refusal.message, status: refusal.status)
            }
            account = chosen
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
    }

    /// Asks which of `candidates` ACCOUNT meant; a provider id's answer becomes the provider's
    /// default exactly as `authdeck use` sets it, so the next call is answered without asking
    /// (by the front too). Another ambiguous name (a shared username, a prefix) cannot be
    /// remembered — no default stands for it — and the person is told so. nil: cancelled.
    private func pick(_ query: String, among candidates: [Account], of accounts: [Account], on terminal: AccountPick, store: DeckStore,
                      asking: AccountPick.Asking) throws -> Account? {
        // Listings never decrypt: the states come from summaries, as `accounts` shows them.
        let states = try? assess(store, asking.config)
        let rows = candidates.map { a in
            let state = states?.entries.first { $0.stored.account.id == a.id }?.state.label ?? "unknown"
            return "\(a.id)  \(TerminalText.inert(a.username))  \(a.providerId)  \(state)"
        }
        let title = (asking.about.map { TerminalText.inert($0) + ": " } ?? "")
            + "\"\(TerminalText.inert(query))\" matches \(candidates.count) accounts."
        guard let index = terminal.choose(title: title, rows: rows, ids: candidates.map(\.id)) else { return nil }
        let chosen = candidates[index]
        let name = query.trimmingWhitespace()
        let providers = accounts.filter { $0.providerId.lowercased() == name.lowercased() }
        if providers.count == candidates.count, candidates.allSatisfy({ $0.providerId.lowercased() == name.lowercased() }) {
            _ = try DefaultChoice(store: store).make(chosen.id)
            terminal.say("\(chosen.id) (\(TerminalText.inert(chosen.username))) remembered as the default for \(chosen.providerId) "
                         + "(change with `authdeck use`).\n")
        } else {
            terminal.say("Using \(chosen.id) (\(TerminalText.inert(chosen.username))) this time; not remembered, as only a provider id "
                         + "stands for a default: name \(chosen.id) to skip this question.\n")
        }
        return chosen
    }
}
