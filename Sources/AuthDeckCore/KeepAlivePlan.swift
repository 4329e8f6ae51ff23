/// What keeping every account signed in calls for at one instant: which to renew now, which
/// need a person, which will lapse without one, and when to look again.
///
/// Why a pure plan: `authdeck watch` and the open deck keep accounts alive by the same rules
/// (renew a silently renewable account `renew_before` ahead of its expiry, warn ahead of the
/// expiry of one that cannot renew), and both are tested through this type without a clock.
public struct KeepAlivePlan: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        /// Renew silently now.
        case renew(accountId: String)
        /// Only a person can bring it back (a revoked grant, an expired non-renewable token).
        case needsSignIn(accountId: String, remedy: String)
        /// It cannot renew silently and lapses at `at` (Facebook without an app secret).
        case expiring(accountId: String, at: Instant)
    }

    public var steps: [Step]
    /// The next instant something becomes due; nil when nothing known ever will.
    public var nextCheck: Instant?

    /// - Parameters:
    ///   - renewBefore: the account's provider's `renew_before`; nil when the provider is not
    ///     configured (such an account is left alone).
    ///   - silentRenewal: whether the provider renews without a refresh token (SharePoint
    ///     cookies, client credentials, Facebook with an app secret).
    public init(_ assessment: DeckAssessment, skew: TimeSpan, renewBefore: (StoredAccount) -> TimeSpan?,
                silentRenewal: (StoredAccount) -> Bool) {
        var steps: [Step] = []
        var next: Instant?
        func wake(_ at: Instant) { next = min(next ?? at, at) }
        let now = assessment.now
        for entry in assessment.entries {
            let id = entry.stored.account.id
            guard let before = renewBefore(entry.stored) else { continue }
            let canRenew = Self.canRenew(entry.stored, now: now, silentRenewal: silentRenewal(entry.stored))
            switch entry.state {
            case .needsSignIn(let reason):
                steps.append(.needsSignIn(accountId: id, remedy: reason))
            case .renewDue:
                steps.append(.renew(accountId: id))
            case .expired(let renewable):
                steps.append(renewable ? .renew(accountId: id)
                                       : .needsSignIn(accountId: id, remedy: "the credentials have expired and cannot be renewed silently"))
            case .signedIn, .expiringSoon:
                if Self.gaveUp(entry.stored) {
                    steps.append(.needsSignIn(accountId: id, remedy: entry.stored.account.lastError!.remedy))
                    continue
                }
                guard let until = entry.usableUntil else { continue }
                let lapses = until - skew
                let due = lapses - before
                if now >= due {
                    steps.append(canRenew ? .renew(accountId: id) : .expiring(accountId: id, at: until))
                    if !canRenew { wake(lapses) }
                } else {
                    wake(due)
                }
            case .failed, .stale:
                continue
            }
        }
        self.steps = steps
        self.nextCheck = next
    }

    /// When the open deck should renew this account by itself: `renew_before` ahead of the
    /// expiry of a usable credential. nil when it cannot renew silently, or has already
    /// expired — the deck shows those for a person to act on (r, R), and `watch` renews them.
    @inlinable
    public static func renewalDue(_ entry: DeckAssessment.Entry, now: Instant, skew: TimeSpan, renewBefore: TimeSpan,
                                  silentRenewal: Bool) -> Instant? {
        // Only what is usable now has a renewal ahead; the state is the cheapest test, so first.
        guard entry.state.isUsable, let until = entry.usableUntil,
              canRenew(entry.stored, now: now, silentRenewal: silentRenewal), !gaveUp(entry.stored) else { return nil }
        return until - skew - renewBefore
    }

    /// The provider already refused a silent renewal: trying again would fail the same way,
    /// every time, until a person signs in (which clears the error).
    @usableFromInline
    static func gaveUp(_ stored: StoredAccount) -> Bool {
        stored.account.lastError?.errorClass == .needsInteraction
    }

    @usableFromInline
    static func canRenew(_ stored: StoredAccount, now: Instant, silentRenewal: Bool) -> Bool {
        silentRenewal || (stored.credentials.refreshToken?.isUsable(at: now) ?? false)
    }
}
