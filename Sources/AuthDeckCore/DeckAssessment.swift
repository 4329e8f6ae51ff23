/// The derived view of a whole deck at one instant: each account's state and expiry.
///
/// Stale verdicts need every account at once (duplicates), so states are derived here,
/// for all accounts together, by every front end (CLI listings, TUI, status counts).
public struct DeckAssessment: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var stored: StoredAccount
        public var state: AccountState
        /// When what is usable now stops being usable (nil: nothing usable, or no expiry).
        public var usableUntil: Instant?
        /// When the credentials lapsed or will lapse, whichever is known (for "expired 3h ago").
        public var expiry: Instant?
    }

    public var entries: [Entry]
    public var now: Instant
    /// The first instant after `now` at which time alone may change a state (`nextChange`).
    public var changesAt: Instant?

    /// - Parameter accounts: taken, not copied: each account is moved into its entry.
    public init(accounts: consuming [StoredAccount], providers: [ProviderProfile]?, statePolicy: StatePolicy,
                pruneSettings: PruneSettings, now: Instant, silentRenewal: (StoredAccount) -> Bool = { _ in false }) {
        let stale = PrunePolicy.staleReasons(accounts, providers: providers, settings: pruneSettings,
                                             statePolicy: statePolicy, now: now)
        self.now = now
        // Each account is moved (popped, last first) into its entry, and the entries turned
        // round at the end. Why: a copy (`for stored in accounts`) retains and releases every
        // String of every account.
        var accounts = accounts
        var entries: [Entry] = []
        entries.reserveCapacity(accounts.count)
        var changesAt: Instant?
        while let stored = accounts.popLast() {
            guard stored.account.quarantinedAt == nil else { continue }
            let state = AccountState.derive(stored, policy: statePolicy, now: now,
                                            silentRenewal: silentRenewal(stored), staleReason: stale[stored.account.id])
            let usable = stored.credentials.hasUsableCredential(at: now, skew: statePolicy.clockSkew)
            let until = usable ? stored.credentials.usableUntil(at: now, skew: statePolicy.clockSkew) : nil
            var expiry = until ?? stored.credentials.lastExpiry
            // Expired inside the clock-skew margin (it cannot renew, so it is not "renew due"):
            // authdeck stopped presenting it `skew` before its expiry, and that is the time
            // shown: "expired" beside "in 6s" would say two things in `accounts`, JSON and the deck.
            // Not "expiring soon" with its countdown: `token` refuses it already, and a state
            // must say what `token` does.
            if case .expired = state, let lapse = expiry, lapse > now { expiry = lapse - statePolicy.clockSkew }
            if let at = Self.nextChange(stored, statePolicy: statePolicy, pruneSettings: pruneSettings, now: now),
               at < changesAt ?? at + .seconds(1) { changesAt = at }
            entries.append(Entry(stored: stored, state: state, usableUntil: until, expiry: expiry))
        }
        entries.reverse()
        self.entries = entries
        self.changesAt = changesAt
    }

    /// How many accounts are in each state, keyed by `AccountState.key`, every key present.
    public var countsByState: [String: Int] {
        var counts = Dictionary(uniqueKeysWithValues: AccountState.allKeys.map { ($0, 0) })
        for entry in entries { counts[entry.state.key, default: 0] += 1 }
        return counts
    }
}

extension AccountState {
    /// Every `key` in display order.
    public static let allKeys = ["signed_in", "expiring_soon", "renew_due", "expired", "needs_sign_in", "failed", "stale"]

    /// Each `key` as `label` words it for all its states (`status` counts by these): "needs
    /// sign-in", as the deck and the man page say, not the key with its underscores undone.
    public static func groupLabel(_ key: String) -> String {
        key == "needs_sign_in" ? "needs sign-in" : String(key.map { $0 == "_" ? " " : $0 })
    }
}
