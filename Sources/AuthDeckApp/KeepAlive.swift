import AuthDeckCore
import AuthDeckConfig
import AuthDeckProviders

/// Staying signed in without a person, pass after pass (`authdeck watch`): follows
/// `KeepAlivePlan`, renews what is due through `Renewal` (four at a time, paced by one
/// `RenewalPacing` for as long as `watch` runs), and tells hooks once what a person must do.
public struct KeepAlive {
    let wiring: ProviderWiring
    /// Writes one line of the log (the time is already in front).
    let writeLine: @Sendable (String) -> Void
    /// The hook runner for a pass's config (its environment follows the config's secrets).
    let hooks: (DeckConfig) -> any HookSink
    /// Accounts whose `on_needs_sign_in` has run (until they are usable again).
    var toldNeedsSignIn: Set<String> = []
    /// `id@expiry` pairs whose `on_expiring` has run.
    var toldExpiring: Set<String> = []
    /// Back-off after failures and the bound on renewals at once, kept from pass to pass.
    let pacing = RenewalPacing(parallel: 4)

    public init(wiring: ProviderWiring, log: @escaping @Sendable (String) -> Void, hooks: @escaping (DeckConfig) -> any HookSink) {
        self.wiring = wiring
        self.writeLine = log
        self.hooks = hooks
    }

    /// Logs `text` after the time.
    public func log(_ text: String) { writeLine("\(wiring.clock.now().iso8601) \(text)") }

    /// One pass: renew what is due, run hooks; returns what it did and when the next pass is due.
    public mutating func pass(config: DeckConfig) async -> KeepAlivePass {
        let assessment: DeckAssessment
        do {
            assessment = try DeckAssessment.read(wiring.store, config: config, now: wiring.clock.now())
        } catch {
            log("cannot read the store: \(error)")
            return KeepAlivePass(unreadStore: true)
        }
        var outcomes: [(accountId: String, outcome: KeepAlivePass.Outcome)] = []
        let skew = config.statePolicy.clockSkew
        let profiles = Dictionary(config.providers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let plan = KeepAlivePlan(assessment, skew: skew, renewBefore: { profiles[$0.account.providerId]?.renewBefore },
                                 silentRenewal: { s in profiles[s.account.providerId].map { ProviderCapabilities.renewsWithoutRefreshToken($0, s.credentials) } ?? false })
        let byId = Dictionary(assessment.entries.map { ($0.stored.account.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Told again only once signed in anew: a token still valid after the provider refused
        // its renewal is usable, yet the refusal stands (telling it on every pass is noise).
        for entry in assessment.entries where entry.state.isUsable && entry.stored.account.lastError?.errorClass != .needsInteraction {
            toldNeedsSignIn.remove(entry.stored.account.id)
        }
        let hooks = self.hooks(config)
        var next = plan.nextCheck
        var due: [(account: Account, need: RenewalNeed)] = []
        for step in plan.steps {
            switch step {
            case .renew(let id):
                if let entry = byId[id] { due.append((entry.stored.account, .ahead(scopes: []))) }
            case let .needsSignIn(id, remedy):
                guard let entry = byId[id] else { continue }
                outcomes.append((id, .needsSignIn(remedy: remedy)))
                await tellNeedsSignIn(entry.stored.account, remedy: remedy, config: config, hooks: hooks)
            case let .expiring(id, at):
                guard let entry = byId[id] else { continue }
                let why = profiles[entry.stored.account.providerId].flatMap(ProviderCapabilities.renewalUnavailableReason)
                outcomes.append((id, .expiring(at: at, reason: why)))
                guard toldExpiring.insert("\(id)@\(at.secondsSinceEpoch)").inserted else { continue }
                log("\(id) expires at \(at.iso8601) and cannot renew silently\(why.map { " (\($0))" } ?? "")")
                if let command = config.hooks.onExpiring {
                    await hooks.run(command, event: "expiring", account: entry.stored.account, expiresAt: at, message: why)
                }
            }
        }
        for (account, attempt) in await Renewal(wiring: wiring, config: config, pacing: pacing).attemptAll(due) {
            let id = account.id
            switch attempt {
            case .deferred(let until):
                outcomes.append((id, .deferred(until: until)))
                next = min(next ?? until, until)
            case .renewed(let renewed):
                let until = renewed.credentials.usableUntil(at: wiring.clock.now(), skew: .seconds(0))
                outcomes.append((id, .renewed(until: until)))
                log("renewed \(id)" + (until.map { " (valid until \($0.iso8601))" } ?? ""))
                if let command = config.hooks.onRenewed {
                    await hooks.run(command, event: "renewed", account: account, expiresAt: until, message: nil)
                }
                if let until, let before = profiles[account.providerId]?.renewBefore {
                    // Not before the pacing allows: a token shorter than `renew_before` stays due.
                    var again = until - skew - before
                    if let paced = pacing.notBefore(id) { again = max(again, paced) }
                    next = min(next ?? again, again)
                }
            case .failed(let failure as AuthFailure, _) where failure.errorClass == .needsInteraction:
                outcomes.append((id, .needsSignIn(remedy: failure.remedy)))
                await tellNeedsSignIn(account, remedy: failure.remedy, config: config, hooks: hooks)
            case .failed(let error, let retryAt):
                let failure = error as? AuthFailure ?? AuthFailure(.misconfigured, code: "error", remedy: "\(error)")
                next = min(next ?? retryAt, retryAt)
                outcomes.append((id, .notRenewed(failure: failure, retryAt: retryAt)))
                // Once a grant was spent (its result kept in a rescue file, or lost) something did change.
                let unchanged = ["rescued", "lost"].contains(failure.code) ? "" : "; nothing was changed"
                let wait = RenewalBackoff.wait(afterFailures: pacing.failures(id))
                log("\(id) was not renewed (\(failure.description))\(unchanged), trying again in \(wait.seconds) s")
            }
        }
        return KeepAlivePass(outcomes: outcomes, next: next)
    }

    mutating func tellNeedsSignIn(_ account: Account, remedy: String, config: DeckConfig, hooks: any HookSink) async {
        guard toldNeedsSignIn.insert(account.id).inserted else { return }
        log("needs a sign-in: " + Remedy.signInAgain(TerminalText.inert(remedy), account: account))
        if let command = config.hooks.onNeedsSignIn {
            await hooks.run(command, event: "needs_sign_in", account: account, expiresAt: nil, message: remedy)
        }
    }
}
