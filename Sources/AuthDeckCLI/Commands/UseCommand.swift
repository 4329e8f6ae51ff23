import ArgumentParser
import AuthDeckCore
import AuthDeckStore

/// `authdeck use ACCOUNT`: makes ACCOUNT its provider's default, so the provider's id stands for
/// it wherever ACCOUNT is accepted (`authdeck token work` with two work accounts, a
/// `[[credential]]` entry's `account = "work"`); `use` alone lists the defaults.
struct UseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use", abstract: "Make ACCOUNT its provider's default (a provider id then stands for it); alone, list the defaults.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The account to make its provider's default.", completion: Completions.accounts) var account: String?
    @Option(name: .long, help: ArgumentHelp("Remove PROVIDER's default.", valueName: "provider"), completion: Completions.providers)
    var clear: String?

    func run() async throws {
        let context = DeckContext(global)
        if let provider = clear {
            guard let store = try context.openStoreIfPresent(), try store.defaultAccount(provider: provider) != nil else {
                // A mistyped provider is an error, not "nothing to clear" (a provider gone from
                // the config with a default still stored is cleared above).
                let config = try context.loadConfig()
                guard config.provider(provider) != nil else { throw CLIError.unknownProvider(provider, in: config) }
                return Output.raw("\(TerminalText.inert(provider)) has no default account.\n")
            }
            try store.setDefaultAccount(nil, provider: provider)
            return Output.raw("\(TerminalText.inert(provider)) has no default account now.\n")
        }
        guard let account else {
            guard let store = try context.openStoreIfPresent() else { return Output.raw("No default accounts.\n") }
            let rows = try store.accountRows(includeQuarantined: false)
            let defaults = try store.defaultAccounts(providers: Array(Set(rows.map(\.providerId))).sorted())
            let shown = defaults.sorted { $0.key < $1.key }.compactMap { provider, id -> String? in
                // A default whose account was deleted without `logout` is shown: the provider's
                // id names nothing until it is chosen again.
                guard let row = rows.first(where: { $0.id == id }) else {
                    return "\(provider)  \(TerminalText.inert(id))  (gone: `authdeck use ACCOUNT` or `authdeck use --clear \(provider)`)"
                }
                return "\(provider)  \(id)  \(TerminalText.inert(row.username))"
            }
            return Output.raw(shown.isEmpty ? "No default accounts (`authdeck use ACCOUNT` sets one).\n" : shown.joined(separator: "\n") + "\n")
        }
        let store = try context.openStore()
        let stored = try context.resolveAccount(account, in: store)
        try store.setDefaultAccount(stored.account.id, provider: stored.account.providerId)
        Output.raw("\(stored.account.id) (\(TerminalText.inert(stored.account.username))) is now the default of \(stored.account.providerId): "
                   + "`\(stored.account.providerId)` stands for it.\n")
    }
}
