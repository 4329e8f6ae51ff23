import AuthDeckCore
import Synchronization

/// How often and how many at once accounts are renewed, kept for as long as its owner lives
/// (`watch`, the open deck; a one-shot command gets a fresh one).
///
/// Why one place: the deck kept its own failure count and a 30 s throttle in its reducer,
/// `watch` a back-off map of its own, and three callers each bounded their concurrency.
/// Renewals ahead of expiry (`RenewalNeed.ahead`) wait for `notBefore`: after a passing
/// failure `RenewalBackoff`'s wait (5 s doubling to 5 minutes); after a success half the new
/// credential's usable life, between 1 and 30 s — a token that lives shorter than
/// `renew_before` stays due and must not be renewed on every tick, yet a 5-second token must
/// still be renewed before it lapses.
/// Renewals someone waits on are never held back, but their results count.
public final class RenewalPacing: Sendable {
    /// The most time between two renewals ahead of one account while they succeed.
    public static let afterSuccess = TimeSpan.seconds(30)

    /// When an account may be renewed ahead again, and its failures in a row.
    struct Entry {
        var notBefore: Instant
        var failures: Int
    }

    let gate: ConcurrencyGate
    private let entries = Mutex<[String: Entry]>([:])

    /// `parallel`: renewals at once through every `Renewal` that shares this pacing.
    public init(parallel: Int = 4) {
        gate = ConcurrencyGate(limit: max(1, parallel))
    }

    /// When `id` may be renewed ahead again (nil: now).
    public func notBefore(_ id: String) -> Instant? {
        entries.withLock { $0[id]?.notBefore }
    }

    /// Records a finished renewal of `id` at `now` — a success with its credential usable
    /// until `usableUntil` (nil: no expiry) — and returns when it may be renewed ahead again.
    @discardableResult
    func record(_ id: String, succeeded: Bool, at now: Instant, usableUntil: Instant? = nil) -> Instant {
        entries.withLock { entries in
            let failures = succeeded ? 0 : (entries[id]?.failures ?? 0) + 1
            let next = now + (succeeded ? Self.waitAfterSuccess(now: now, usableUntil: usableUntil) : RenewalBackoff.wait(afterFailures: failures))
            entries[id] = Entry(notBefore: next, failures: failures)
            return next
        }
    }

    /// Half the usable life left, between 1 s and `afterSuccess`; `afterSuccess` when the
    /// credential is not usable at all beyond the clock-skew margin (renewing at once would
    /// bring the same).
    static func waitAfterSuccess(now: Instant, usableUntil: Instant?) -> TimeSpan {
        guard let usableUntil, usableUntil > now else { return afterSuccess }
        return .seconds(min(afterSuccess.seconds, max(1, (usableUntil - now).seconds / 2)))
    }

    /// Failures in a row of `id` (0 after a success or none yet).
    public func failures(_ id: String) -> Int {
        entries.withLock { $0[id]?.failures ?? 0 }
    }
}
