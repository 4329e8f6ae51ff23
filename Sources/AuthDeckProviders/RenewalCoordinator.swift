import AuthDeckCore
import AuthDeckPlatform
import AuthDeckOAuth
#if canImport(Glibc)
import Glibc
#endif

/// Renews accounts silently with single-flight across processes.
///
/// For one account: take the store's renewal lease (waiting while another process holds
/// it), re-read the account (the other process may have renewed it already), call the
/// adapter, and commit the new credentials — compare-and-swap on the refresh token's
/// generation — before returning them. A rotating refresh token is therefore spent by
/// exactly one process, and its successor is on disk before anyone uses the new token.
/// Failures: a transient one changes nothing but the audit trail; others are recorded as
/// the account's last error, with every credential kept.
public struct RenewalCoordinator: Sendable {
    public let store: any AccountStore
    public let clock: any WallClock
    /// This process's lease-holder name (`pid@host`); each renewal adds its own suffix, so
    /// two renewals in one process exclude each other too.
    public let holder: String
    public let skew: TimeSpan
    /// How long to wait for another process's renewal before giving up (transient).
    public let leaseWait: TimeSpan
    /// How long a lease is held at most (longer than any request's timeout).
    public let leaseTTL: TimeSpan

    public init(store: any AccountStore, clock: any WallClock, holder: String, skew: TimeSpan,
                leaseWait: TimeSpan = .seconds(60), leaseTTL: TimeSpan = .seconds(90)) {
        self.store = store
        self.clock = clock
        self.holder = holder
        self.skew = skew
        self.leaseWait = leaseWait
        self.leaseTTL = leaseTTL
    }

    /// Renews `accountId` if it needs it (or always with `force`) and returns it as stored.
    public func renew(_ accountId: String, with adapter: any ProviderAdapter, scopes: [String] = [],
                      force: Bool = false, window: TimeSpan = .seconds(0)) async throws -> StoredAccount {
        try await renewIfNeeded(accountId, with: adapter, scopes: scopes, force: force, window: window).stored
    }

    /// `renew`, saying whether the provider was asked (false: the account was fresh enough,
    /// perhaps because another process had just renewed it).
    public func renewIfNeeded(_ accountId: String, with adapter: any ProviderAdapter, scopes: [String] = [],
                              force: Bool = false, window: TimeSpan = .seconds(0)) async throws -> (stored: StoredAccount, asked: Bool) {
        let holder = leaseHolder()
        if let current = try await lease(accountId, holder: holder, unlessDone: { !force && fresh($0, scopes: scopes, window: window) }) {
            return (current, false)
        }
        defer { try? store.releaseRenewalLease(accountId: accountId, holder: holder) }
        // A process killed mid-renewal since this one opened the store may have left the newer token.
        store.commitLeftRescues()
        guard let current = try store.account(id: accountId) else {
            throw AuthFailure(.misconfigured, code: "gone", remedy: "account \(accountId) no longer exists")
        }
        if !force, fresh(current, scopes: scopes, window: window) { return (current, false) }
        let account = current.account
        // Room for the result is set aside before the refresh token is spent (see RenewalRescue).
        let rescue: RenewalRescue
        do {
            rescue = try store.reserveRenewalRescue(accountId: account.id)
        } catch {
            throw AuthFailure(.transient, code: "disk_full", remedy: "\(error)")
        }
        var kept = false
        defer { if !kept { store.discardRenewalRescue(rescue) } }
        // From the request to the commit, Ctrl-C and SIGTERM wait: the provider may spend the old
        // refresh token as it answers, and the new one must be saved first.
        return try await SignalShield.during {
            var renewed: Credentials
            let heard = HeardRotation()
            do {
                if let spent = current.credentials.refreshToken?.value {
                    renewed = try await RotationWitness.listening(for: spent, keepEarly(current, in: rescue, heard: heard)) {
                        try await adapter.renew(current, scopes: scopes)
                    }
                } else {
                    renewed = try await adapter.renew(current, scopes: scopes)
                }
            } catch let failure as AuthFailure {
                // The provider answered with a new refresh token and the answer then failed (an
                // id_token refused, its keys not fetched): the old token is spent, so the new one
                // is kept — every later renewal checks its own answer again — and the failure
                // recorded beside it. Dropped, a one-use provider's account was lost.
                let early = heard.credentials.withLock { $0 }
                if let early {
                    let kept = DeckEvent(at: clock.now(), kind: .refreshed, accountId: account.id, providerId: account.providerId,
                                         detail: "refresh token rotated to generation \(early.refreshToken?.generation ?? 0); the rest of the answer was not used")
                    _ = try? store.commitRenewal(early, accountId: account.id, expected: current.credentials.refreshToken?.stamp, event: kept)
                }
                // Refused because another process renewed meanwhile (this one was stopped past its
                // lease, and sent a token already replaced): nothing is wrong with the account —
                // it said "sign in again" on a healthy one. (Not when this renewal kept a token it
                // heard just above: that changed the account, and the refusal is its own.)
                if early == nil, failure.errorClass == .needsInteraction, let now = try? store.account(id: account.id),
                   !RefreshTokenStamp.holds(now.credentials.refreshToken?.stamp, current.credentials.refreshToken?.stamp) {
                    throw AuthFailure(.transient, code: "conflict",
                                      remedy: "\(account.id) was renewed by another process meanwhile; nothing is wrong with it")
                }
                let event = DeckEvent(at: clock.now(), kind: .refreshFailed, accountId: account.id, providerId: account.providerId,
                                      detail: "\(failure.errorClass.jsonName) \(failure.code): \(failure.remedy)")
                // Neither a blip nor what the account holds restated (`providerAsked`) marks it.
                try? store.recordFailure(accountId: account.id,
                                         error: failure.errorClass == .transient || !failure.providerAsked ? nil : failure.accountError(at: clock.now()),
                                         event: event)
                throw failure
            }
            // A token asked for by scope is another audience's: never handed out without that scope.
            if !scopes.isEmpty {
                for i in renewed.accessTokens.indices where renewed.accessTokens[i].requestedScopes.isEmpty {
                    renewed.accessTokens[i].requestedScopes = Array(Set(scopes)).sorted()
                }
            }
            let now = clock.now()
            let merged = current.credentials.merging(renewed: renewed, now: now, skew: skew)
            let rotated = merged.refreshToken?.generation != current.credentials.refreshToken?.generation
            let event = DeckEvent(at: now, kind: .refreshed, accountId: account.id, providerId: account.providerId,
                                  detail: rotated ? "renewed; refresh token rotated to generation \(merged.refreshToken!.generation)" : "renewed")
            // Written ahead of the commit when the provider rotated the refresh token: killed from
            // here on (kill -9, the OOM killer), this process leaves the new tokens for the next
            // one; a strict provider has already spent the old token. Not synced: a killed
            // process's writes stay in the page cache, and the commit's own sync follows at once.
            // Should the write fail, the commit still goes ahead: it is what keeps the tokens.
            if rotated {
                try? store.keepInRescue(rescue, credentials: merged, accountId: account.id,
                                        expected: current.credentials.refreshToken?.stamp, event: event, durable: false)
            }
            let committed: Bool
            do {
                committed = try await store.commitRenewalInGroup(merged, accountId: account.id,
                                                                 expected: current.credentials.refreshToken?.stamp, event: event)
            } catch {
                // The provider has spent the old refresh token: the new one must not be lost.
                do {
                    try store.keepInRescue(rescue, credentials: merged, accountId: account.id,
                                           expected: current.credentials.refreshToken?.stamp, event: event, durable: true)
                } catch let rescueError {
                    throw AuthFailure(.transient, code: "lost", remedy: "\(error); the renewed tokens of \(account.id) could not be kept either "
                                      + "(\(rescueError)), and the provider may have spent the old refresh token; if renewing fails, sign in: `authdeck login \(account.providerId)`")
                }
                kept = true
                throw AuthFailure(.transient, code: "rescued", remedy: "\(String(describing: error).replacingOccurrences(of: "; nothing was changed", with: "")); "
                                  + "the renewed tokens of \(account.id) are kept sealed in \(rescue.path) and saved by the next authdeck command "
                                  + "once there is space — do not delete that file")
            }
            guard committed else {
                throw AuthFailure(.transient, code: "conflict", remedy: "\(account.id) was changed by another process during renewal; try again")
            }
            return (StoredAccount(account: account, credentials: merged), true)
        }
    }

    /// A holder name for one renewal: this process's, with a suffix of its own.
    func leaseHolder() -> String {
        holder + "/" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }

    /// Takes `accountId`'s renewal lease for `holder`, waiting (at most `leaseWait`) while another
    /// holds it; returns nil once taken, or the account, lease not taken, as soon as `done` says
    /// there is nothing left to do (another process may have done it meanwhile).
    func lease(_ accountId: String, holder: String, unlessDone done: (StoredAccount) -> Bool) async throws -> StoredAccount? {
        let started = clock.now()
        while true {
            guard let current = try store.account(id: accountId) else {
                throw AuthFailure(.misconfigured, code: "gone", remedy: "account \(accountId) no longer exists")
            }
            if done(current) { return current }
            let now = clock.now()
            if try store.acquireRenewalLease(accountId: accountId, holder: holder, until: now + leaseTTL, now: now) { return nil }
            guard clock.now() - started < leaseWait else {
                throw AuthFailure(.transient, code: "busy", remedy: "another authdeck process is still renewing \(accountId); try again")
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// What the renewal of `current` does when the token endpoint reads a rotated refresh token
    /// (`RotationWitness`): seals the account's credentials with that token as the next
    /// generation into the reserved rescue file, before the answer is checked further. Killed
    /// from then on, the process leaves it for the next command; the full result overwrites it.
    /// Should the rest of the answer then fail, the renewal commits what it heard (`heard`).
    func keepEarly(_ current: StoredAccount, in rescue: RenewalRescue, heard: HeardRotation) -> @Sendable (Secret) -> Void {
        let (store, clock) = (self.store, self.clock)
        return { value in
            guard value != current.credentials.refreshToken?.value else { return }
            var early = current.credentials
            let generation = (current.credentials.refreshToken?.generation ?? 0) + 1
            // Issued where the spent one was sent, which its home admitted.
            early.refreshToken = RefreshToken(id: UUIDString.make(), value: value, generation: generation, obtainedAt: clock.now(),
                                              home: current.credentials.refreshToken?.home)
            let event = DeckEvent(at: clock.now(), kind: .refreshed, accountId: current.account.id, providerId: current.account.providerId,
                                  detail: "refresh token rotated to generation \(generation) (kept as the provider answered)")
            heard.credentials.withLock { $0 = early }
            try? store.keepInRescue(rescue, credentials: early, accountId: current.account.id,
                                    expected: current.credentials.refreshToken?.stamp, event: event, durable: false)
        }
    }

    /// Holds a token for `scopes` (and, for cookie accounts, a cookie set) that outlives
    /// `window`, so there is nothing to do.
    func fresh(_ stored: StoredAccount, scopes: [String], window: TimeSpan) -> Bool {
        let now = clock.now()
        if !stored.credentials.cookies.isEmpty {
            guard stored.credentials.cookiesUsable(at: now + window, skew: skew) else { return false }
            if stored.credentials.accessTokens.isEmpty { return true }
        }
        guard let token = stored.credentials.usableAccessToken(for: scopes, at: clock.now(), skew: skew) else { return false }
        guard let expiry = token.expiresAt else { return true }
        return expiry - skew - clock.now() > window
    }
}
