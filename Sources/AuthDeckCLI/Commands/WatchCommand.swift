import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckProviders
import AuthDeckApp

/// `authdeck watch`: keeps accounts signed in without a terminal, in the foreground (a
/// systemd user unit runs it as a service).
///
/// Each pass reads the store and config afresh and follows `KeepAlivePlan`: an account that
/// renews silently is renewed `renew_before` ahead of its expiry (single flight with every
/// other authdeck process); one that cannot gets an `on_expiring` hook ahead of time; one
/// that only a person can bring back gets `on_needs_sign_in` once (again only after it was
/// signed in anew). A network failure is retried with back-off and never downgrades an
/// account. Between passes it sleeps until the next thing is due, at most `--max-interval`.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Keep accounts signed in without a terminal: renew before expiry and run [hooks].")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: ArgumentHelp("The longest sleep between two passes.", valueName: "seconds")) var maxInterval: Double = 60
    @Flag(name: .long, help: "Make one pass and exit (for timers and cron).") var once = false
    @Flag(name: .long, help: "Log the end of every pass (what it did: renewed, need a sign-in, nothing due) and when the next is due.")
    var verbose = false
    @Flag(name: .long, help: "With --once: print the pass's outcome per account as JSON (the log stays on stderr).") var json = false

    /// The `--once --json` answer: what the pass did to each account something was due for.
    struct PassJSON: Encodable {
        struct Outcome: Encodable {
            var account: String
            var outcome: String
            /// renewed: the new expiry; expiring: when it lapses.
            var expires_at: String?
            var remedy: String?
            var error_class: String?
            var code: String?
            /// not_renewed: the next attempt; deferred: when the back-off lets it try.
            var retry_at: String?
        }
        var accounts: [Outcome]
        var summary: String
        var next_pass_at: String?
    }

    func validate() throws {
        if maxInterval < 1 { throw ValidationError("--max-interval must be at least 1 second") }
        if json && !once { throw ValidationError("--json prints one pass's outcomes: use it with --once") }
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let store = try context.openStore()
        var watcher = KeepAlive(wiring: context.wiring(store), log: { context.output.note($0) }) { config in
            HookRunner(environment: ChildEnvironment.scrubbed(context.environment, providers: config.providers), output: context.output)
        }
        watcher.log("authdeck watch: watching \(store.location.databasePath)")
        // A broken config at start is an error; one saved half-way while watch runs is
        // reported and the last good settings kept, so an editor never stops the service.
        var config = try context.loadConfig()
        while true {
            do {
                config = try context.loadConfig()
            } catch {
                watcher.log("\(error); keeping the previous settings")
            }
            let pass = await watcher.pass(config: config)
            let next = pass.next
            if once {
                if verbose { watcher.log("pass done: \(pass.summary)") }
                if json { try context.output.json(Self.json(pass)) }
                return
            }
            let now = context.clock.now()
            let wait = min(max((next ?? now + .seconds(Int64(maxInterval))) - now, .seconds(1)), .seconds(Int64(maxInterval)))
            // A person reading a service's journal (and a test) can see passes happen, and what they did.
            if verbose { watcher.log("pass done: \(pass.summary); next pass at \((now + wait).iso8601)") }
            try await Task.sleep(nanoseconds: UInt64(wait.seconds) * 1_000_000_000)
        }
    }

    /// The pass in `--json`'s names; each outcome carries only the fields that apply to it.
    static func json(_ pass: KeepAlivePass) -> PassJSON {
        PassJSON(accounts: pass.outcomes.map { id, outcome in
            var o = PassJSON.Outcome(account: id, outcome: outcome.jsonName)
            switch outcome {
            case .renewed(let until): o.expires_at = until?.iso8601
            case .needsSignIn(let remedy): (o.remedy, o.error_class) = (remedy, ErrorClass.needsInteraction.jsonName)
            case let .expiring(at, reason): (o.expires_at, o.remedy) = (at.iso8601, reason)
            case let .notRenewed(failure, retryAt):
                (o.remedy, o.error_class, o.code, o.retry_at) = (failure.remedy, failure.errorClass.jsonName, failure.code, retryAt.iso8601)
            case .deferred(let until): o.retry_at = until.iso8601
            }
            return o
        }, summary: pass.summary, next_pass_at: pass.next?.iso8601)
    }
}
