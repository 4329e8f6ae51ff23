import AuthDeckCore

/// What one `watch` pass did, account by account, and when the next is due: what `watch
/// --verbose` sums up at the end of a pass and `watch --once --json` prints.
///
/// Why a value: a pass that renewed nothing looked the same in the journal as one that never
/// ran, and a timer's script had only the exit status to go by.
public struct KeepAlivePass: Sendable, Equatable {
    /// What happened to one account in the pass.
    public enum Outcome: Sendable, Equatable {
        /// Renewed silently; valid until `until` (nil: no expiry).
        case renewed(until: Instant?)
        /// Only a person can bring it back; `remedy` says how.
        case needsSignIn(remedy: String)
        /// It cannot renew silently and lapses at `at`; `reason` says why it cannot.
        case expiring(at: Instant, reason: String?)
        /// The renewal failed and is tried again at `retryAt`; nothing was downgraded.
        case notRenewed(failure: AuthFailure, retryAt: Instant)
        /// Due, but held back by the back-off after an earlier failure until `until`.
        case deferred(until: Instant)

        /// The outcome's name in `watch --once --json`.
        public var jsonName: String {
            switch self {
            case .renewed: "renewed"
            case .needsSignIn: "needs_sign_in"
            case .expiring: "expiring"
            case .notRenewed: "not_renewed"
            case .deferred: "deferred"
            }
        }
    }

    /// Accounts something was due for, in the order the pass met them.
    public var outcomes: [(accountId: String, outcome: Outcome)]
    /// When the next pass is due; nil when nothing known ever will be.
    public var next: Instant?
    /// The store could not be read: nothing was looked at (the log says why).
    public var unreadStore: Bool

    public init(outcomes: [(accountId: String, outcome: Outcome)] = [], next: Instant? = nil, unreadStore: Bool = false) {
        self.outcomes = outcomes
        self.next = next
        self.unreadStore = unreadStore
    }

    public static func == (a: KeepAlivePass, b: KeepAlivePass) -> Bool {
        a.next == b.next && a.unreadStore == b.unreadStore
            && a.outcomes.map(\.accountId) == b.outcomes.map(\.accountId) && a.outcomes.map(\.outcome) == b.outcomes.map(\.outcome)
    }

    /// The pass in one clause for the log: "2 renewed, 1 needs a sign-in", or "nothing due".
    public var summary: String {
        if unreadStore { return "the store could not be read" }
        func count(_ name: String) -> Int { outcomes.filter { $0.outcome.jsonName == name }.count }
        var parts: [String] = []
        let renewed = count("renewed"), signIn = count("needs_sign_in"), expiring = count("expiring")
        let failed = count("not_renewed"), deferred = count("deferred")
        if renewed > 0 { parts.append("\(renewed) renewed") }
        if signIn > 0 { parts.append("\(signIn) \(signIn == 1 ? "needs" : "need") a sign-in") }
        if expiring > 0 { parts.append("\(expiring) expiring that cannot renew silently") }
        if failed > 0 { parts.append("\(failed) not renewed (tried again later)") }
        if deferred > 0 { parts.append("\(deferred) waiting out a back-off") }
        return parts.isEmpty ? "nothing due" : parts.joined(separator: ", ")
    }
}
