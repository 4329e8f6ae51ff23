import ArgumentParser
import AuthDeckCore
import AuthDeckConfig
import AuthDeckPlatform
import AuthDeckVault

/// `authdeck status`: where things live, which key source is active, and counts by state.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the store, the key source and how many accounts are in each state.")

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Print JSON.") var json = false
    @Flag(name: .long, help: ArgumentHelp(
        "Print one short line of what needs you (expiring soon, to sign in, failed, stale) for a shell prompt or tmux's status bar; nothing when all is well.",
        discussion: "Answered from the store without a network call.")) var short = false
    @Option(name: .long, help: ArgumentHelp("`prompt` is --short.", valueName: "format")) var format: Format?

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case prompt
    }

    func validate() throws {
        if json, short || format != nil { throw ValidationError("--json and --short (--format prompt) are two answers: give one") }
    }

    struct StatusJSON: Encodable {
        var version: String
        var store: String
        var key_source: String
        var config: String
        var config_exists: Bool
        var providers: Int
        var accounts: Int
        var quarantined: Int
        var states: [String: Int]
        var warnings: [String]
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        if short || format == .prompt { return try shortLine(context) }
        let config = try context.loadConfig()
        guard let store = try context.openStoreIfPresent() else { return try unborn(context, config) }
        let assessment = try context.assess(store, config)
        let quarantined = try store.accountRows(includeQuarantined: true).filter { $0.quarantinedAt != nil }.count
        let counts = assessment.countsByState
        if json {
            try context.output.json(StatusJSON(version: AuthDeckCore.version, store: store.location.databasePath,
                                               key_source: store.keySource, config: config.path, config_exists: config.fileExists,
                                               providers: config.providers.count, accounts: assessment.entries.count,
                                               quarantined: quarantined, states: counts, warnings: store.warnings))
            return
        }
        var out = "authdeck \(AuthDeckCore.version)\n"
        out += "store:      \(store.location.databasePath)\n"
        out += "key source: \(store.keySource)\n"
        out += "config:     \(config.path)\(config.fileExists ? "" : " (not created yet: no providers)")\n"
        out += "providers:  \(config.providers.count)\n"
        out += "accounts:   \(assessment.entries.count)\(quarantined > 0 ? " (+\(quarantined) in quarantine)" : "")\n"
        for key in AccountState.allKeys {
            out += "  \(AccountState.groupLabel(key)): \(counts[key] ?? 0)\n"
        }
        context.output.prose(out)
    }

    /// `--short`: the line of `StatusLine`, or nothing; the record the front answers the next
    /// call from (`StatusFastPath`) is saved for this config file.
    func shortLine(_ context: DeckContext) throws {
        // Taken before the file is read, so an edit in between makes the record stale, not wrongly fresh.
        let configIdentity = ConfigFileIdentity.of(path: context.configPath)
        let config = try context.loadConfig()
        guard let store = try context.openStoreIfPresent() else { return }
        if let configIdentity {
            try? store.saveSealedRecord(StatusFastPath(configIdentity: configIdentity, statePolicy: config.statePolicy,
                                                       pruneSettings: config.pruneSettings, providers: config.knownProviders))
        }
        let line = StatusLine.short(try context.assess(store, config))
        if !line.isEmpty { context.output.raw(line + "\n") }
    }

    /// The status before the first sign-in: where the store will be, created by nothing here.
    func unborn(_ context: DeckContext, _ config: DeckConfig) throws {
        let path = context.location.databasePath
        if json {
            return try context.output.json(StatusJSON(version: AuthDeckCore.version, store: path, key_source: "none yet",
                                                      config: config.path, config_exists: config.fileExists, providers: config.providers.count,
                                                      accounts: 0, quarantined: 0, states: [:], warnings: []))
        }
        context.output.raw("authdeck \(AuthDeckCore.version)\n"
                           + "store:      \(path) (not created yet: the first sign-in or import creates it)\n"
                           + "config:     \(config.path)\(config.fileExists ? "" : " (not created yet: no providers)")\n"
                           + "providers:  \(config.providers.count)\n"
                           + "accounts:   0\n")
    }
}
