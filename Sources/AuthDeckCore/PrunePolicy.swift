/// Decides which accounts are stale: a pure function of accounts, config and clock.
///
/// Rules, checked in this order (the first that matches is the reason):
/// 1. provider removed from the config (only when the config is known);
/// 2. sign-in never completed, after `signInGrace`;
/// 3. wrong tenant for a provider that pins one;
/// 4. duplicate (same provider + subject) — the best of the group is kept;
/// 5. renewal rejected for longer than `rejectedGrace` with nothing usable left;
/// 6. unused for longer than `unusedAfter`.
/// A `transient` last error is never a reason, and an account holding a usable credential
/// is never a candidate for rules 2 and 5.
public enum PrunePolicy {
    /// - Parameter providers: the configured providers, or nil when no config could be
    ///   read — then "provider removed" is not judged, so a missing file prunes nothing.
    public static func candidates(
        _ accounts: [StoredAccount], providers: [ProviderProfile]?, settings: PruneSettings,
        statePolicy: StatePolicy, now: Instant
    ) -> [PruneCandidate] {
        let byId = providers.map { Dictionary($0.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) }
        let duplicates = duplicatesToPrune(accounts, now: now, skew: statePolicy.clockSkew)
        var out: [PruneCandidate] = []
        // Accounts come grouped by provider: its profile is looked up once per run of them.
        // (Read by index: a version reading through a pointer was no faster in bench/ab.)
        var profileId: String?
        var configured = true
        var expectedRealm: String?
        for index in accounts.indices where accounts[index].account.quarantinedAt == nil {
            let providerId = accounts[index].account.providerId
            if providerId != profileId {
                profileId = providerId
                let profile = byId?[providerId]
                configured = byId == nil || profile != nil
                expectedRealm = profile?.expectedRealm
            }
            if let reason = reason(for: accounts[index], configured: configured, expectedRealm: expectedRealm,
                                   duplicateOf: duplicates[index], settings: settings, skew: statePolicy.clockSkew, now: now) {
                out.append(PruneCandidate(account: accounts[index].account, reason: reason))
            }
        }
        return out
    }

    /// A map from account id to its stale reason, for state derivation of a whole deck.
    public static func staleReasons(
        _ accounts: [StoredAccount], providers: [ProviderProfile]?, settings: PruneSettings,
        statePolicy: StatePolicy, now: Instant
    ) -> [String: PruneReason] {
        Dictionary(candidates(accounts, providers: providers, settings: settings, statePolicy: statePolicy, now: now)
            .map { ($0.account.id, $0.reason) }, uniquingKeysWith: { a, _ in a })
    }

    /// - Parameters:
    ///   - configured: whether the account's provider is in the config (true when no config
    ///     could be read: then no provider counts as removed).
    ///   - expectedRealm: the tenant its provider pins, if any.
    ///   - duplicateOf: the account kept of its duplicates, when it is a duplicate not kept.
    static func reason(
        for stored: StoredAccount, configured: Bool, expectedRealm: String?, duplicateOf: String?,
        settings: PruneSettings, skew: TimeSpan, now: Instant
    ) -> PruneReason? {
        let usable = stored.credentials.hasUsableCredential(at: now, skew: skew)
        let transient = stored.account.lastError?.errorClass == .transient

        if !configured {
            return .providerRemoved(providerId: stored.account.providerId)
        }
        if stored.account.lastSignInAt == nil, stored.credentials.isEmpty, !transient,
           stored.account.createdAt + settings.signInGrace <= now {
            return .signInNeverCompleted
        }
        if TenantPin.differs(expected: expectedRealm, actual: stored.account.realm),
           let expected = expectedRealm, let actual = stored.account.realm {
            return .wrongTenant(expected: expected, actual: actual)
        }
        if let keptId = duplicateOf {
            return .duplicate(keptId: keptId)
        }
        if let error = stored.account.lastError, error.errorClass == .needsInteraction, !usable,
           error.at + settings.rejectedGrace <= now,
           (stored.account.lastSignInAt ?? stored.account.createdAt) <= error.at {
            return .renewalRejected(since: error.at)
        }
        if let unusedAfter = settings.unusedAfter {
            let created = stored.account.createdAt
            let last = max(stored.account.lastUsedAt ?? created, stored.account.lastSignInAt ?? created, created)
            if last + unusedAfter <= now {
                return .unused(days: Int((now - last).seconds / 86_400), limit: unusedAfter)
            }
        }
        return nil
    }

    /// For each account that has duplicates (same provider + subject) and is not the one of
    /// them to keep, its position → the id of the one kept: usable credentials first, then a
    /// refresh token, then the latest sign-in, then the newest, then the smallest id (so the
    /// choice is deterministic). Quarantined accounts and accounts without a subject take no
    /// part. Groups hold positions, not copies of the accounts.
    static func duplicatesToPrune(_ accounts: [StoredAccount], now: Instant, skew: TimeSpan) -> [Int: String] {
        var out: [Int: String] = [:]
        let groups = SubjectGroups(accounts) { !$0.account.subject.isEmpty && $0.account.quarantinedAt == nil }
        for members in groups.groups {
            let best = members.max { lhs, rhs in
                rank(accounts[lhs], now: now, skew: skew) < rank(accounts[rhs], now: now, skew: skew)
            }!
            for member in members where member != best { out[member] = accounts[best].account.id }
        }
        return out
    }

    static func rank(_ s: StoredAccount, now: Instant, skew: TimeSpan) -> Rank {
        Rank(usable: s.credentials.hasUsableCredential(at: now, skew: skew) ? 1 : 0,
             refresh: s.credentials.refreshToken != nil ? 1 : 0,
             signIn: s.account.lastSignInAt?.secondsSinceEpoch ?? .min,
             created: s.account.createdAt.secondsSinceEpoch,
             id: s.account.id)
    }

    struct Rank: Comparable {
        var usable: Int
        var refresh: Int
        var signIn: Int64
        var created: Int64
        var id: String
        static func < (a: Rank, b: Rank) -> Bool {
            if a.usable != b.usable { return a.usable < b.usable }
            if a.refresh != b.refresh { return a.refresh < b.refresh }
            if a.signIn != b.signIn { return a.signIn < b.signIn }
            if a.created != b.created { return a.created < b.created }
            return a.id > b.id
        }
    }
}
