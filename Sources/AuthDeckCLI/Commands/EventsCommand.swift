import ArgumentParser
import AuthDeckCore
import AuthDeckUI

/// `authdeck events`: the audit trail — what happened to which account, when and why.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "Show the audit trail of sign-ins, renewals, prunes and sign-outs.")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: ArgumentHelp("Only events this recent (e.g. 2h, 7d).", valueName: "span")) var since: String?
    @Option(name: .long, help: ArgumentHelp("Only this account's events.", valueName: "account"), completion: Completions.accounts) var account: String?
    @Option(name: .long, help: "At most this many (the newest).") var limit: Int = 200
    @Flag(name: .long, help: "Print JSON.") var json = false

    struct EventJSON: Encodable {
        var id: Int64?
        var at: String
        var kind: String
        var account: String?
        var provider: String?
        var detail: String
    }

    func validate() throws {
        if let since, TimeSpan(parsing: since) == nil {
            throw ValidationError("--since \"\(since)\" is not a duration such as 2h or 7d")
        }
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let store = try context.openStore()
        var accountId: String?
        var unknown = false
        if let account {
            // Events outlive their accounts (logout, purge), so an unknown id is still a filter.
            switch AccountMatcher.resolve(account, in: try store.accountRows(includeQuarantined: true)) {
            case .found(let a): accountId = a.id
            case .ambiguous(let list):
                throw CLIError.usage("\"\(TerminalText.inert(account))\" matches \(list.count) accounts: \(list.map(\.id).joined(separator: ", "))")
            case .notFound, .defaultMissing: (accountId, unknown) = (account, true)
            }
        }
        let from = since.flatMap(TimeSpan.init(parsing:)).map { context.clock.now() - $0 }
        let events = try store.events(since: from, accountId: accountId, limit: limit)
        // A filter that names no account and no event is a typo, not an empty history.
        if let account, unknown, events.isEmpty, try store.events(since: nil, accountId: accountId, limit: 1).isEmpty {
            throw CLIError.usage("no account and no event matches \"\(TerminalText.inert(account))\" (`authdeck accounts` lists accounts; events keep the full id of a signed-out one)")
        }
        if json {
            return try context.output.json(events.map {
                EventJSON(id: $0.id, at: $0.at.iso8601, kind: $0.kind.rawValue, account: $0.accountId,
                          provider: $0.providerId, detail: $0.detailInJSONSpelling)
            })
        }
        // One sentence an event, as the deck's detail pane says it (`needs_interaction
        // no_refresh_token: …` read as a log line); the stored kind and detail are in --json.
        var table = TablePrinter("TIME", "ACCOUNT", "EVENT")
        for e in events { table.add([e.at.iso8601, e.accountId ?? "-", TerminalText.inert(EventSentence.of(e))]) }
        context.output.prose(events.isEmpty ? "No events.\n" : table.render())
    }
}
