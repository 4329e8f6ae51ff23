import ArgumentParser
import AuthDeckCore
import Foundation

/// `authdeck accounts` (alias `ls`): every account with its derived state and expiry.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "List accounts with their state and when their credentials expire.",
        aliases: ["ls"])

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Print JSON (field names are stable; see authdeck(1)).") var json = false
    @Option(name: .long, help: ArgumentHelp("Only this provider's accounts.", valueName: "id"), completion: Completions.providers) var provider: String?

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        try await Self.list(context, json: json, provider: provider)
    }

    /// The listing itself (what `run` and `FastArguments` both call; async like `run`, so it
    /// runs where `run` did).
    static func list(_ context: DeckContext, json: Bool, provider: String?) async throws {
        let config = try context.loadConfig()
        // No store yet at the default place: nothing to list, and nothing is created.
        guard let store = try context.openStoreIfPresent() else {
            if let provider, config.provider(provider) == nil { throw CLIError.unknownProvider(provider, in: config) }
            return context.output.raw(json ? "[]\n" : "No accounts yet.\n")
        }
        let assessment = try context.assess(store, config)
        // No copy when nothing is filtered out. Why: entries are large, and copying them all into
        // a growing array faults in fresh pages.
        let entries = provider.map { id in assessment.entries.filter { $0.stored.account.providerId == id } } ?? assessment.entries
        // An unknown provider is a mistake, not an empty list (a script would read "no accounts").
        if let provider, entries.isEmpty, config.provider(provider) == nil {
            throw CLIError.unknownProvider(provider, in: config)
        }
        let now = assessment.now
        let defaults = Set(try store.defaultAccounts(providers: config.providers.map(\.id)).values)
        if json {
            let skew = config.statePolicy.clockSkew
            AccountJSON.stream(entries, now: now, skew: skew, defaults: defaults, to: context.output.bytes)
            // Everything is written (write(2), nothing buffered): the process's streams leave now
            // rather than free the accounts one by one. The store needs no closing (WAL).
            return withExtendedLifetime((assessment, store)) { context.output.finishedStreaming() }
        }
        if entries.isEmpty {
            context.output.raw("No accounts yet.\n")
            return
        }
        var table = TablePrinter("ID", "PROVIDER", "USER", "NAME", "REALM", "STATE", "EXPIRES", "LAST USED")
        for e in entries {
            let a = e.stored.account
            let never = e.state.isUsable && e.usableUntil == nil
            table.add([a.id + (defaults.contains(a.id) ? " *" : ""), a.providerId, a.username, a.displayName, a.realm ?? "", e.state.label,
                       ExpiryText.describe(e.expiry, now: now, neverExpires: never), ExpiryText.ago(a.lastUsedAt, now: now)])
        }
        context.output.prose(table.render())
        if !defaults.isEmpty { context.output.raw("* its provider's default account (`authdeck use`)\n") }
    }
}
