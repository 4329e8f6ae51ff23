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

    func validate() throws {
        if maxInterval < 1 { throw ValidationError("--max-interval must be at least 1 second") }
    }

    func run() async throws {
        let context = DeckContext(global)
        let store = try context.openStore()
        var watcher = Watcher(context: context, store: store)
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
            let next = await watcher.pass(config: config)
            if once { return }
            let now = context.clock.now()
            let wait = min(max((next ?? now + .seconds(Int64(maxInterval))) - now, .seconds(1)), .seconds(Int64(maxInterval)))
            try await Task.sleep(nanoseconds: UInt64(wait.seconds) * 1_000_000_000)
        }
    }
}

/// The memory of one `watch` process: who has been told what, and who is backing off.
struct Watcher {
    let context: DeckContext
    let store: DeckStore
    /// Accounts whose `on_needs_sign_in` has run (until they are usable again).
    var toldNeedsSignIn: Set<String> = []
    /// `id@expiry` pairs whose `on_expiring` has run.
    var toldExpiring: Set<String> = []
    /// Accounts whose last renewal failed for a passing reason: not before, and the failures so far.
    var backoff: [String: (until: Instant, failures: Int)] = [:]

    init(context: DeckContext, store: DeckStore) {
        self.context = context
        self.store = store
    }

    func log(_ text: String) { Output.note("\(context.clock.now().iso8601) \(text)") }

    /// One pass: renew what is due, run hooks; returns when the next pass is due.
    mutating func pass(config: DeckConfig) async -> Instant? {
        let assessment: DeckAssessment
        do {
            assessment = try context.assess(store, config)
        } catch {
            log("cannot read the store: \(error)")
            return nil
        }
        let skew = config.statePolicy.clockSkew
        let profiles = Dictionary(config.providers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let plan = KeepAlivePlan(assessment, skew: skew, renewBefore: { profiles[$0.account.providerId]?.renewBefore },
                                 silentRenewal: { s in profiles[s.account.providerId].map { ProviderCapabilities.renewsWithoutRefreshToken($0, s.credentials) } ?? false })
        let byId = Dictionary(assessment.entries.map { ($0.stored.account.id, $0) }, uniquingKeysWith: { a, _ in a })
        for entry in assessment.entries where entry.state.isUsable { toldNeedsSignIn.remove(entry.stored.account.id) }
        let hooks = HookRunner(environment: ChildEnvironment.scrubbed(context.environment, providers: config.providers))
        var next = plan.nextCheck
        var due: [StoredAccount] = []
        for step in plan.steps {
            switch step {
            case .renew(let id):
                if let wait = backoff[id], wait.until > assessment.now {
                    next = min(next ?? wait.until, wait.until)
                } else if let entry = byId[id] {
                    due.append(entry.stored)
                }
            case let .needsSignIn(id, remedy):
                guard let entry = byId[id] else { continue }
                await tellNeedsSignIn(entry.stored.account, remedy: remedy, config: config, hooks: hooks)
            case let .expiring(id, at):
                guard let entry = byId[id], toldExpiring.insert("\(id)@\(at.secondsSinceEpoch)").inserted else { continue }
                let why = profiles[entry.stored.account.providerId].flatMap(ProviderCapabilities.renewalUnavailableReason)
                log("\(id) expires at \(at.iso8601) and cannot renew silently\(why.map { " (\($0))" } ?? "")")
                if let command = config.hooks.onExpiring {
                    await hooks.run(command, event: "expiring", account: entry.stored.account, expiresAt: at, message: why)
                }
            }
        }
        for (stored, result) in await renew(due, config: config) {
            let id = stored.account.id
            switch result {
            case .success(let renewed):
                backoff.removeValue(forKey: id)
                let until = renewed.credentials.usableUntil(at: context.clock.now(), skew: .seconds(0))
                log("renewed \(id)" + (until.map { " (valid until \($0.iso8601))" } ?? ""))
                if let command = config.hooks.onRenewed {
                    await hooks.run(command, event: "renewed", account: stored.account, expiresAt: until, message: nil)
                }
                if let until, let before = profiles[stored.account.providerId]?.renewBefore {
                    let again = until - skew - before
                    next = min(next ?? again, again)
                }
            case .failure(let failure) where failure.errorClass == .needsInteraction:
                await tellNeedsSignIn(stored.account, remedy: failure.remedy, config: config, hooks: hooks)
            case .failure(let failure):
                let failures = (backoff[id]?.failures ?? 0) + 1
                let wait = RenewalBackoff.wait(afterFailures: failures)
                let until = context.clock.now() + wait
                backoff[id] = (until, failures)
                next = min(next ?? until, until)
                // Once a grant was spent (its result kept in a rescue file, or lost) something did change.
                let unchanged = ["rescued", "lost"].contains(failure.code) ? "" : "; nothing was changed"
                log("\(id) was not renewed (\(failure.description))\(unchanged), trying again in \(wait.seconds) s")
            }
        }
        return next
    }

    mutating func tellNeedsSignIn(_ account: Account, remedy: String, config: DeckConfig, hooks: HookRunner) async {
        guard toldNeedsSignIn.insert(account.id).inserted else { return }
        log("\(account.id) needs a sign-in: \(TerminalText.inert(remedy)) (`authdeck login \(account.providerId)`)")
        if let command = config.hooks.onNeedsSignIn {
            await hooks.run(command, event: "needs_sign_in", account: account, expiresAt: nil, message: remedy)
        }
    }

    /// Renews the due accounts, four at a time, each so that it outlives its `renew_before`.
    func renew(_ due: [StoredAccount], config: DeckConfig) async
        -> [(StoredAccount, Result<StoredAccount, AuthFailure>)] {
        let gate = ConcurrencyGate(limit: 4)
        let reauthentication = Reauthentication(wiring: context.wiring(store), config: config)
        return await withTaskGroup(of: (StoredAccount, Result<StoredAccount, AuthFailure>).self) { group in
            for stored in due {
                group.addTask {
                    await gate.run {
                        do {
                            return (stored, .success(try await reauthentication.renewAhead(stored.account.id)))
                        } catch let failure as AuthFailure {
                            return (stored, .failure(failure))
                        } catch {
                            return (stored, .failure(AuthFailure(.misconfigured, code: "error", remedy: "\(error)")))
                        }
                    }
                }
            }
            var out: [(StoredAccount, Result<StoredAccount, AuthFailure>)] = []
            for await result in group { out.append(result) }
            return out.sorted { $0.0.account.id < $1.0.account.id }
        }
    }
}
