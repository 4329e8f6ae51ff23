import ArgumentParser
import AuthDeckCore
import AuthDeckTerminal
import Foundation
import AuthDeckStore
import AuthDeckApp

/// `authdeck prune`: finds stale accounts, shows why, and moves them to a 30-day quarantine.
///
/// Nothing is deleted at once: pruned accounts keep their sealed credentials in the
/// quarantine, `--undo` brings them back, and only after 30 days are they purged.
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune", abstract: "Quarantine stale accounts (failed sign-ins, wrong tenant, duplicates…); --undo restores.")

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Only list what would be pruned.") var dryRun = false
    @Flag(name: .long, help: "Do not ask for confirmation (needed without a terminal).") var yes = false
    @Flag(name: .long, help: "Restore quarantined accounts (all, or the ACCOUNTs given).") var undo = false
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Only this reason (repeatable): \(PruneReason.allKeys.joined(separator: ", ")).", valueName: "reason"),
            completion: Completions.pruneReasons)
    var reason: [String] = []
    @Option(name: .long, help: ArgumentHelp("Only this provider's accounts.", valueName: "id"), completion: Completions.providers) var provider: String?
    @Option(name: .long, help: ArgumentHelp("Treat accounts unused this long as stale: w, d, h (e.g. 90d, 2w, 12h); m is minutes.", valueName: "span"))
    var olderThan: String?
    @Flag(name: .long, help: "Allow an --older-than under an hour.") var force = false
    @Flag(name: .long, help: "Print JSON.") var json = false
    @Argument(help: "With --undo: the accounts to restore (ids or unique prefixes).", completion: Completions.quarantined) var accounts: [String] = []

    struct CandidateJSON: Encodable {
        var id: String
        var provider: String
        var username: String
        var reason: String
        var detail: String
    }

    struct ResultJSON: Encodable {
        var dry_run: Bool
        var pruned: [CandidateJSON]
        var restored: [String]
        var purged: [String]
    }

    func validate() throws {
        if let bad = reason.first(where: { !PruneReason.allKeys.contains($0) }) {
            throw ValidationError("unknown --reason \"\(bad)\"; one of \(PruneReason.allKeys.joined(separator: ", "))")
        }
        if let olderThan {
            guard let span = TimeSpan(parsing: olderThan) else {
                throw ValidationError("--older-than \"\(olderThan)\" is not a duration such as 90d, 2w or 12h")
            }
            // `1m` is one minute, not a month: every account used more than a minute ago would
            // go. So short spans are refused unless asked for on purpose.
            if span < .hours(1), !force {
                throw ValidationError("--older-than \(olderThan) is \(span.compact) (m is minutes; a month is 30d): "
                                      + "every account unused that long would be pruned; use --force for a span under an hour")
            }
        }
        if force, olderThan == nil { throw ValidationError("--force goes with --older-than (it allows a span under an hour)") }
        if !accounts.isEmpty && !undo { throw ValidationError("ACCOUNT arguments go with --undo") }
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    /// Without `--yes` or `--dry-run` it asks on the terminal, which only the binary has.
    func run(in context: DeckContext) async throws {
        let output = context.output
        let store = try context.openStore()
        let pruning = Pruning(store: store, clock: context.clock)
        if undo { return try restore(pruning, output) }
        let config = try context.loadConfig()
        let unusedAfter = olderThan.flatMap(TimeSpan.init(parsing:))
        if yes && !dryRun {
            // Nothing to preview: what is stale is found and moved in one transaction.
            let outcome = try pruning.quarantine(nil, config: config, unusedAfter: unusedAfter, reasons: Set(reason), provider: provider)
            return try report(outcome, output)
        }
        let candidates = try pruning.candidates(config, reasons: Set(reason), provider: provider, unusedAfter: unusedAfter)
        let rows = candidates.map(Self.row)
        if dryRun || candidates.isEmpty {
            if json { return try output.json(ResultJSON(dry_run: dryRun, pruned: rows, restored: [], purged: [])) }
            output.raw(candidates.isEmpty ? "Nothing to prune.\n" : listing(rows) + "\n\(rows.count) would be pruned (dry run).\n")
            return
        }
        if !yes {
            guard TerminalProbe.isInteractive else {
                throw CLIError.usage("prune needs --yes when not run from a terminal (or --dry-run to preview)")
            }
            output.raw(listing(rows) + "\nMove these \(rows.count) accounts to the quarantine (restorable for \(Pruning.retentionDays) days)? [y/N] ")
            guard let answer = context.input.readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                output.raw("Nothing pruned.\n")
                return
            }
        }
        // The verdicts are taken again as the accounts are moved: one signed in since the
        // preview is kept, and said so.
        try report(try pruning.quarantine(candidates, config: config, unusedAfter: unusedAfter), output)
    }

    /// What was moved, kept and purged; with `--yes` the moved accounts are listed, since no
    /// preview showed them.
    func report(_ outcome: PruneOutcome, _ output: any CommandOutput) throws {
        for sentence in outcome.kept { output.note(sentence) }
        for (provider, id) in outcome.clearedDefaults { output.note("\(id) was \(provider)'s default account; \(provider) has none now") }
        let pruned = outcome.quarantined.map(Self.row)
        if json { return try output.json(ResultJSON(dry_run: false, pruned: pruned, restored: [], purged: outcome.purged.map(\.id))) }
        if pruned.isEmpty { return output.raw(yes ? "Nothing to prune.\n" : "Nothing pruned.\n") }
        output.raw((yes ? listing(pruned) + "\n" : "") + "Pruned \(pruned.count). Undo with `authdeck prune --undo`.\n")
    }

    static func row(_ candidate: PruneCandidate) -> CandidateJSON {
        CandidateJSON(id: candidate.account.id, provider: candidate.account.providerId, username: candidate.account.username,
                      reason: candidate.reason.key, detail: candidate.reason.sentence)
    }

    func listing(_ rows: [CandidateJSON]) -> String {
        var table = TablePrinter("ID", "PROVIDER", "USER", "REASON")
        for r in rows { table.add([r.id, r.provider, r.username, r.detail]) }
        return table.render()
    }

    func restore(_ pruning: Pruning, _ output: any CommandOutput) throws {
        let quarantined = try pruning.quarantined()
        var ids: [String]?
        if !accounts.isEmpty {
            ids = try accounts.map { query in
                switch AccountMatcher.resolve(query, in: quarantined) {
                case .found(let a): return a.id
                case .ambiguous(let list): throw CLIError.usage("\"\(TerminalText.inert(query))\" matches \(list.count) quarantined accounts: \(list.map(\.id).joined(separator: ", "))")
                case .notFound, .defaultMissing: throw CLIError.usage("no quarantined account matches \"\(TerminalText.inert(query))\"")
                }
            }
        }
        let restored = try pruning.restore(ids: ids)
        if json { return try output.json(ResultJSON(dry_run: false, pruned: [], restored: restored.map(\.id), purged: [])) }
        output.raw(restored.isEmpty ? "The quarantine is empty.\n"
                   : "Restored \(restored.count): \(restored.map(\.id).joined(separator: ", "))\n")
    }
}
