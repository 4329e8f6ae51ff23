import AuthDeckCore
import AuthDeckConfig

/// Pruning stale accounts and undoing it: the one place it happens, for `authdeck prune` and
/// the deck's `p`.
///
/// Nothing is deleted at once: pruned accounts move to a quarantine with their sealed
/// credentials, a restore brings them back, and only after `retentionDays` are they purged.
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
        var settings = config.pruneSettings
        if let unusedAfter { settings.unusedAfter = unusedAfter }
        return PrunePolicy.candidates(try store.accountSummaries(includeQuarantined: false), providers: config.knownProviders,
                                      settings: settings, statePolicy: config.statePolicy, now: clock.now())
            .filter { reasons.isEmpty || reasons.contains($0.reason.key) }
            .filter { provider == nil || $0.account.providerId == provider }
            .filter { ids?.contains($0.account.id) ?? true }
    }

    /// Moves `candidates` to the quarantine and purges what has been there past the retention;
    /// returns the purged accounts.
    public func quarantine(_ candidates: [PruneCandidate]) throws -> [Account] {
        let now = clock.now()
        try store.quarantine(candidates, at: now)
        return try store.purgeQuarantine(before: now - .days(Self.retentionDays))
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
