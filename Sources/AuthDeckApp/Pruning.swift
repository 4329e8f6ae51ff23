import AuthDeckCore
import AuthDeckConfig

/// Pruning stale accounts and undoing it: the one place it happens, for `authdeck prune` and
/// the deck's `p`.
///
/// Nothing is deleted at once: pruned accounts move to a quarantine with their sealed
/// credentials, a restore brings them back, and only after `retentionDays` are they purged.
/// A default naming a pruned account is cleared here (`DefaultChoice`), so the deck and the CLI
/// cannot differ.
public struct Pruning: Sendable {
    public static let retentionDays: Int64 = 30

    let store: any AccountStore
    let clock: any WallClock

    public init(store: any AccountStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// The accounts `config`'s rules find stale now, narrowed to `reasons` (keys), one
    /// provider or some ids when given. Reads summaries: no secret is opened to decide.
    public func candidates(_ config: DeckConfig, reasons: Set<String> = [], provider: String? = nil, ids: Set<String>? = nil,
                           unusedAfter: TimeSpan? = nil) throws -> [PruneCandidate] {
        PrunePolicy.candidates(try store.accountSummaries(includeQuarantined: false), providers: config.knownProviders,
                               settings: Self.settings(config, unusedAfter: unusedAfter), statePolicy: config.statePolicy, now: clock.now())
            .filter { reasons.isEmpty || reasons.contains($0.reason.key) }
            .filter { provider == nil || $0.account.providerId == provider }
            .filter { ids?.contains($0.account.id) ?? true }
    }

    /// Moves `candidates` (a preview from `candidates`, with the same `config` and
    /// `unusedAfter`) to the quarantine and purges what has been there past the retention.
    ///
    /// Each candidate's verdict is taken again inside the quarantine's transaction, from the
    /// store as it is then: one signed in again, renewed, removed or found stale for another
    /// reason since the preview is kept, and the outcome says so.
    ///
    /// With `candidates` nil (`prune --yes`: no preview to confirm), whatever is stale inside
    /// that transaction, of `reasons` and `provider` when given, is moved: one read of the store,
    /// not a preview's and then the transaction's (100,000 accounts: twice the time).
    public func quarantine(_ candidates: [PruneCandidate]?, config: DeckConfig, unusedAfter: TimeSpan? = nil,
                           reasons: Set<String> = [], provider: String? = nil) throws -> PruneOutcome {
        let now = clock.now()
        let settings = Self.settings(config, unusedAfter: unusedAfter)
        var kept: [String] = []
        let quarantined = try store.quarantine(candidates, at: now) { current in
            let stale = PrunePolicy.candidates(current, providers: config.knownProviders, settings: settings,
                                               statePolicy: config.statePolicy, now: now)
            guard let candidates else {
                return stale.filter { (reasons.isEmpty || reasons.contains($0.reason.key)) && (provider == nil || $0.account.providerId == provider) }
            }
            let staleNow = Dictionary(stale.map { ($0.account.id, $0) }, uniquingKeysWith: { a, _ in a })
            let present = Dictionary(current.map { ($0.account.id, $0.account) }, uniquingKeysWith: { a, _ in a })
            var confirmed: [PruneCandidate] = []
            for candidate in candidates {
                let id = TerminalText.inert(candidate.account.id)
                guard let account = present[candidate.account.id] else {
                    kept.append("\(id) was removed or pruned since the preview; left as it is")
                    continue
                }
                if let signedIn = account.lastSignInAt, signedIn > (candidate.account.lastSignInAt ?? Instant(secondsSinceEpoch: Int64.min)) {
                    kept.append("\(id) was signed in again since the preview; kept")
                } else if let now = staleNow[candidate.account.id], now.reason.key == candidate.reason.key {
                    confirmed.append(now)
                } else if let now = staleNow[candidate.account.id] {
                    kept.append("\(id) is now \(now.reason.sentence), not \(candidate.reason.sentence) as previewed; kept")
                } else {
                    kept.append("\(id) is no longer stale (\(candidate.reason.sentence)) since the preview; kept")
                }
            }
            return confirmed
        }
        let purged = try store.purgeQuarantine(before: now - .days(Self.retentionDays))
        return PruneOutcome(quarantined: quarantined, kept: kept, purged: purged,
                            clearedDefaults: try DefaultChoice(store: store).clear(naming: quarantined.map(\.account)))
    }

    static func settings(_ config: DeckConfig, unusedAfter: TimeSpan?) -> PruneSettings {
        var settings = config.pruneSettings
        if let unusedAfter { settings.unusedAfter = unusedAfter }
        return settings
    }

    /// The accounts in the quarantine now.
    public func quarantined() throws -> [Account] {
        try store.accountRows(includeQuarantined: true).filter { $0.quarantinedAt != nil }
    }

    /// Brings quarantined accounts back (all of them when `ids` is nil).
    public func restore(ids: [String]?) throws -> [Account] {
        try store.restore(ids: ids)
    }
}
