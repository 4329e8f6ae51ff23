import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckApp

/// `authdeck use ACCOUNT`: makes ACCOUNT its provider's default, so the provider's id stands for
/// it wherever ACCOUNT is accepted (`authdeck token work` with two work accounts, a
/// `[[credential]]` entry's `account = "work"`); `use` alone lists the defaults. With `--json`
/// every form prints the defaults as they are afterwards, so a script reads one shape.
struct UseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use", abstract: "Make ACCOUNT its provider's default (a provider id then stands for it); alone, list the defaults.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The account to make its provider's default.", completion: Completions.accounts) var account: String?
    @Option(name: .long, help: ArgumentHelp("Remove PROVIDER's default.", valueName: "provider"), completion: Completions.providers)
    var clear: String?
    @Flag(name: .long, help: "Print the defaults (after any change) as JSON.") var json = false

    /// One provider's default in `--json`: snake_case names as in `accounts --json`.
    struct DefaultJSON: Encodable {
        var provider: String
        var account: String
        /// nil when the account is gone (deleted without `logout`): the default names nothing.
        var username: String?
        var gone: Bool
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let output = context.output
        if let provider = clear {
            let store = try context.openStoreIfPresent()
            var cleared: String?
            if let store {
                cleared = try DefaultChoice(store: store).clear(provider: provider, config: context.loadConfig)
            } else {
                // No store, so no default; a mistyped provider is still named as one.
                try DefaultChoice.requireConfigured(provider, in: context.loadConfig())
            }
            if json { return try output.json(try store.map(Self.defaults) ?? []) }
            return output.raw("\(TerminalText.inert(provider)) has no default account\(cleared == nil ? "" : " now").\n")
        }
        guard let account else {
            let shown = try context.openStoreIfPresent().map(Self.defaults) ?? []
            if json { return try output.json(shown) }
            guard context.storeExists else { return output.raw("No default accounts.\n") }
            return output.raw(shown.isEmpty ? "No default accounts (`authdeck use ACCOUNT` sets one).\n" : shown.map { d in
                // A default whose account was deleted without `logout` is shown: the provider's
                // id names nothing until it is chosen again.
                guard let username = d.username else {
                    return "\(d.provider)  \(TerminalText.inert(d.account))  (gone: `authdeck use ACCOUNT` or `authdeck use --clear \(d.provider)`)\n"
                }
                return "\(d.provider)  \(d.account)  \(TerminalText.inert(username))\n"
            }.joined())
        }
        let store = try context.openStore()
        let stored = try context.resolveAccount(account, in: store)
        let made = try DefaultChoice(store: store).make(stored.account.id)
        if json { return try output.json(try Self.defaults(store)) }
        output.raw("\(made.accountId) (\(TerminalText.inert(stored.account.username))) \(made.said)\n")
    }

    /// Every provider's default account that is still in the store, by provider.
    static func defaults(_ store: DeckStore) throws -> [DefaultJSON] {
        let rows = try store.accountRows(includeQuarantined: false)
        let defaults = try store.defaultAccounts(providers: Array(Set(rows.map(\.providerId))).sorted())
        return defaults.sorted { $0.key < $1.key }.map { provider, id in
            let username = rows.first { $0.id == id }?.username
            return DefaultJSON(provider: provider, account: id, username: username, gone: username == nil)
        }
    }
}
