import Dispatch
import Synchronization
import AuthDeckCore

/// Whether the agent may hand a host an account's credential: the person's standing
/// allow-list (`[[agent]]`), then what they granted for this connection, then their answer now.
///
/// Order: a `[[agent]]` entry that matches the host, names the account, covers the scopes and
/// has not expired → allowed; a live "connection" grant of this session for the account →
/// allowed; else the confirmer is asked, bounded by the request's timeout (no answer in time is
/// a deny); no confirmer → refused. An entry that expired allows nothing: the person is asked,
/// or the request refused naming the lapsed entry. A claimed host (the main socket) has no
/// session and so never matches a session's grant.
public actor AgentPolicy {
    /// The decision and, for the events, how it was reached.
    public enum Verdict: Equatable, Sendable {
        /// `how`: `allow #2` (the entry), `connection grant`, `once`, `connection`.
        case allowed(how: String)
        case refused(String)
    }

    struct Grant: Hashable {
        var session: String
        var accountId: String
    }

    let allows: [AgentAllow]
    let confirmer: (any AgentConfirming)?
    var grants: Set<Grant> = []

    public init(allows: [AgentAllow], confirmer: (any AgentConfirming)?) {
        self.allows = allows
        self.confirmer = confirmer
    }

    /// Decides `ask` for `account`. `scopes`: what the request asked (the provider's when it
    /// asked none); nil for a cookie header. `timeout`: the request's remaining seconds.
    public func decide(_ ask: AgentAsk, account: Account, scopes: [String]?, now: Instant, timeout: Double) async -> Verdict {
        let fitting = allows.filter { $0.matches(host: ask.host) && $0.names(account) && $0.covers(scopes: scopes) }
        if let live = fitting.first(where: { !$0.expired(at: now) }) { return .allowed(how: "allow #\(live.index)") }
        if let session = ask.session, grants.contains(Grant(session: session, accountId: account.id)) {
            return .allowed(how: "connection grant")
        }
        let lapsed = fitting.first.map { "[[agent]] #\($0.index), which allowed it, expired at \($0.expires?.iso8601 ?? "?")" }
        guard let confirmer else {
            return .refused((lapsed.map { $0 + "; " } ?? "") + "no [[agent]] entry allows \(ask.hostClaimed ? "claimed " : "")host "
                            + "\(TerminalText.inert(ask.host)) \(account.id)\(scopes.map { $0.isEmpty ? "" : " for " + $0.joined(separator: " ") } ?? "") "
                            + "and no one is there to confirm it")
        }
        switch await Self.bounded(confirmer, ask, timeout: timeout) {
        case .once: return .allowed(how: "once")
        case .connection:
            // A claimed host has no connection to grant for: it is this request only.
            guard let session = ask.session else { return .allowed(how: "once") }
            grants.insert(Grant(session: session, accountId: account.id))
            return .allowed(how: "connection")
        case .deny:
            return .refused("the person denied it" + (lapsed.map { " (\($0))" } ?? ""))
        case nil:
            return .refused("no answer from the person within \(Int(timeout.rounded(.up))) s" + (lapsed.map { " (\($0))" } ?? ""))
        }
    }

    /// Ends a session's "connection" grants (its `authdeck ssh` hung up).
    public func endSession(_ session: String) {
        grants = grants.filter { $0.session != session }
    }

    /// Whether the session holds a "connection" grant for the account (the deck's view).
    public func hasGrant(session: String, accountId: String) -> Bool {
        grants.contains(Grant(session: session, accountId: accountId))
    }

    /// The confirmer's answer, or nil when none came within `timeout` — returned at the
    /// deadline even when the confirmer is still blocked (a prompt nobody answers).
    static func bounded(_ confirmer: any AgentConfirming, _ ask: AgentAsk, timeout: Double) async -> AgentDecision? {
        let once = Once()
        return await withCheckedContinuation { (continuation: CheckedContinuation<AgentDecision?, Never>) in
            once.waiting.withLock { $0 = continuation }
            // The deadline is kept on a queue of its own, not by a task: the shared pool may be
            // busy (or blocked) when it falls due, and a remote must not wait past it.
            Self.clock.asyncAfter(deadline: .now() + max(0, min(timeout, 86_400))) {
                once.waiting.withLock { $0.take() }?.resume(returning: nil)
            }
            // On the agent's threads: a person's answer must not queue behind a busy shared pool.
            Task.detached(executorPreference: AgentServer.threads) {
                let decision = await confirmer.confirm(ask, timeout: timeout)
                once.waiting.withLock { $0.take() }?.resume(returning: decision)
            }
        }
    }

    static let clock = DispatchQueue(label: "authdeck.agent.confirm-deadline")

    /// The continuation the first of the confirmer and the clock resumes.
    final class Once: Sendable {
        let waiting = Mutex<CheckedContinuation<AgentDecision?, Never>?>(nil)
    }
}
