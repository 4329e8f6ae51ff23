import AuthDeckCore
import AuthDeckPlatform
import AuthDeckOAuth

/// One silent renewal of one account, its guarantees as named steps:
/// lease → reserve → hear → write ahead → commit → release.
///
/// - **lease**: the store's renewal lease, waited for while another process holds it; the
///   account is read again under it (another process may have renewed it meanwhile, or been
///   killed leaving the newer token in a rescue file);
/// - **reserve**: room on disk for the result, set aside before the refresh token is spent, so
///   a full disk cannot lose a token the provider has already replaced;
/// - **hear**: the provider is asked, and a rotated refresh token is kept in that room the
///   moment the answer is read (`RotationHearing`), before the answer is checked further;
/// - **write ahead**: the whole result in that room just before the commit;
/// - **commit**: compare-and-swap on the refresh token's generation; should the write fail,
///   the result stays in the room, durably, for the next command to commit;
/// - **release**: the lease, and the room unless it holds a result.
///
/// From the request to the commit, Ctrl-C and SIGTERM wait (`SignalShield`): the provider may
/// spend the old refresh token as it answers, and the new one must be saved first. So a
/// rotating refresh token is spent by exactly one process, and its successor is on disk before
/// anyone uses the new access token.
struct RenewalRun {
    let store: any AccountStore
    let clock: any WallClock
    let skew: TimeSpan
    let accountId: String
    /// This renewal's lease-holder name: the process's with a suffix of its own, so that two
    /// renewals in one process exclude each other too.
    let holder: String
    let leaseWait: TimeSpan
    let leaseTTL: TimeSpan
    /// Whether the account as stored needs nothing (a token for the scopes that outlives the
    /// window); never true for a forced renewal.
    let isFresh: @Sendable (StoredAccount) -> Bool

    /// A result to commit: the merged credentials and the event that says what changed.
    struct Result {
        var credentials: Credentials
        var event: DeckEvent
        var rotated: Bool
    }

    /// Runs the steps in order; `asked` says whether the provider was asked (false: the
    /// account was fresh enough, perhaps because another process had just renewed it).
    func perform(asking adapter: any ProviderAdapter, scopes: [String]) async throws -> (stored: StoredAccount, asked: Bool) {
        if let fresh = try await lease() { return (fresh, false) }
        defer { release() }
        let current = try readUnderLease()
        if isFresh(current) { return (current, false) }
        let rescue = try reserve()
        var keepRoom = false
        defer { if !keepRoom { store.discardRenewalRescue(rescue) } }
        return try await SignalShield.during {
            let renewed = try await hear(current, asking: adapter, scopes: scopes, rescue: rescue)
            let result = merge(renewed, into: current, scopes: scopes)
            if result.rotated { writeAhead(result, over: current, in: rescue) }
            if let kept = try await commit(result, over: current, rescue: rescue) {
                keepRoom = true
                throw kept
            }
            return (StoredAccount(account: current.account, credentials: result.credentials), true)
        }
    }

    /// Lease: waits for the store's renewal lease; returns the account instead when it is
    /// fresh (no lease taken), so a renewal another process finished is not repeated.
    func lease() async throws -> StoredAccount? {
        let started = clock.now()
        while true {
            let current = try read()
            if isFresh(current) { return current }
            let now = clock.now()
            if try store.acquireRenewalLease(accountId: accountId, holder: holder, until: now + leaseTTL, now: now) { return nil }
            guard clock.now() - started < leaseWait else {
                throw AuthFailure(.transient, code: "busy", remedy: "another authdeck process is still renewing \(accountId); try again")
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// The account as stored under the lease, with what a process killed mid-renewal (since
    /// this one opened the store) left in a rescue file committed first.
    func readUnderLease() throws -> StoredAccount {
        store.commitLeftRescues()
        return try read()
    }

    /// Reserve: room for the result, before the refresh token is spent (see `RenewalRescue`).
    func reserve() throws -> RenewalRescue {
        do {
            return try store.reserveRenewalRescue(accountId: accountId)
        } catch {
            throw AuthFailure(.transient, code: "disk_full", remedy: "\(error)")
        }
    }

    /// Hear: asks the provider, keeping a rotated refresh token in `rescue` as soon as the
    /// token endpoint reads it. A failure is recorded (`failed`) and thrown.
    func hear(_ current: StoredAccount, asking adapter: any ProviderAdapter, scopes: [String],
              rescue: RenewalRescue) async throws -> Credentials {
        let heard = HeardRotation()
        let hearing = current.credentials.refreshToken == nil ? nil : RotationHearing(keepEarly(current, in: rescue, heard: heard))
        do {
            return try await adapter.renew(current, scopes: scopes, hearing: hearing)
        } catch let failure as AuthFailure {
            throw failed(failure, current: current, heard: heard.credentials.withLock { $0 })
        }
    }

    /// What `hear` keeps when the token endpoint reads a rotated refresh token: the account's
    /// credentials with that token as the next generation, sealed into the reserved room before
    /// the answer is checked further. Killed from then on, the process leaves it for the next
    /// command; the full result overwrites it. Should the rest of the answer fail, `failed`
    /// commits what was heard.
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

    /// The failure `hear` throws, after recording it: a transient one changes nothing but the
    /// audit trail; others become the account's last error, every credential kept.
    func failed(_ failure: AuthFailure, current: StoredAccount, heard early: Credentials?) -> AuthFailure {
        let account = current.account
        // The provider answered with a new refresh token and the answer then failed (an
        // id_token refused, its keys not fetched): the old token is spent, so the new one is
        // kept — every later renewal checks its own answer again — and the failure recorded
        // beside it. Dropped, a one-use provider's account would be lost.
        if let early {
            let kept = DeckEvent(at: clock.now(), kind: .refreshed, accountId: account.id, providerId: account.providerId,
                                 detail: "refresh token rotated to generation \(early.refreshToken?.generation ?? 0); the rest of the answer was not used")
            _ = try? store.commitRenewal(early, accountId: account.id, expected: current.credentials.refreshToken?.stamp, event: kept)
        }
        // Refused because another process renewed meanwhile (this one was stopped past its
        // lease, and sent a token already replaced): nothing is wrong with the account, which
        // must not read "sign in again". (Not when this renewal kept a token it heard just
        // above: that changed the account, and the refusal is its own.)
        if early == nil, failure.errorClass == .needsInteraction, let now = try? store.account(id: account.id),
           !RefreshTokenStamp.holds(now.credentials.refreshToken?.stamp, current.credentials.refreshToken?.stamp) {
            return AuthFailure(.transient, code: "conflict", remedy: "\(account.id) was renewed by another process meanwhile; nothing is wrong with it")
        }
        let event = DeckEvent(at: clock.now(), kind: .refreshFailed, accountId: account.id, providerId: account.providerId,
                              detail: "\(failure.errorClass.jsonName) \(failure.code): \(failure.remedy)")
        // Neither a blip nor what the account holds restated (`providerAsked`) marks it.
        try? store.recordFailure(accountId: account.id,
                                 error: failure.errorClass == .transient || !failure.providerAsked ? nil : failure.accountError(at: clock.now()),
                                 event: event)
        return failure
    }

    /// The provider's answer folded into what the account holds.
    func merge(_ renewed: Credentials, into current: StoredAccount, scopes: [String]) -> Result {
        var renewed = renewed
        // A token asked for by scope is another audience's: never handed out without that scope.
        if !scopes.isEmpty {
            for i in renewed.accessTokens.indices where renewed.accessTokens[i].requestedScopes.isEmpty {
                renewed.accessTokens[i].requestedScopes = Array(Set(scopes)).sorted()
            }
        }
        let now = clock.now()
        let merged = current.credentials.merging(renewed: renewed, now: now, skew: skew)
        let rotated = merged.refreshToken?.generation != current.credentials.refreshToken?.generation
        let event = DeckEvent(at: now, kind: .refreshed, accountId: current.account.id, providerId: current.account.providerId,
                              detail: rotated ? "renewed; refresh token rotated to generation \(merged.refreshToken!.generation)" : "renewed")
        return Result(credentials: merged, event: event, rotated: rotated)
    }

    /// Write ahead: the result in the reserved room before the commit, when the provider
    /// rotated the refresh token. Killed from here on (kill -9, the OOM killer), this process
    /// leaves the new tokens for the next one; a strict provider has already spent the old
    /// token. Not synced: a killed process's writes stay in the page cache, and the commit's own
    /// sync follows at once. Should the write fail, the commit still goes ahead: it is what
    /// keeps the tokens.
    func writeAhead(_ result: Result, over current: StoredAccount, in rescue: RenewalRescue) {
        try? store.keepInRescue(rescue, credentials: result.credentials, accountId: current.account.id,
                                expected: current.credentials.refreshToken?.stamp, event: result.event, durable: false)
    }

    /// Commit: compare-and-swap on the refresh token's generation. Returns nil when committed,
    /// or the failure to throw once the room is kept: the store could not be written and the
    /// result is in the room, durably, for the next command (the provider has spent the old
    /// refresh token: the new one must not be lost).
    func commit(_ result: Result, over current: StoredAccount, rescue: RenewalRescue) async throws -> AuthFailure? {
        let account = current.account
        let expected = current.credentials.refreshToken?.stamp
        let committed: Bool
        do {
            committed = try await store.commitRenewalInGroup(result.credentials, accountId: account.id, expected: expected, event: result.event)
        } catch {
            do {
                try store.keepInRescue(rescue, credentials: result.credentials, accountId: account.id, expected: expected,
                                       event: result.event, durable: true)
            } catch let rescueError {
                throw AuthFailure(.transient, code: "lost", remedy: "\(error); the renewed tokens of \(account.id) could not be kept either "
                                  + "(\(rescueError)), and the provider may have spent the old refresh token; if renewing fails, sign in: `authdeck login \(account.providerId)`")
            }
            return AuthFailure(.transient, code: "rescued", remedy: "\(String(describing: error).replacingOccurrences(of: "; nothing was changed", with: "")); "
                               + "the renewed tokens of \(account.id) are kept sealed in \(rescue.path) and saved by the next authdeck command "
                               + "once there is space — do not delete that file")
        }
        guard committed else {
            throw AuthFailure(.transient, code: "conflict", remedy: "\(account.id) was changed by another process during renewal; try again")
        }
        return nil
    }

    /// Release: gives the lease back (the room is the caller's to keep or discard).
    func release() {
        try? store.releaseRenewalLease(accountId: accountId, holder: holder)
    }

    /// The account as stored, or a failure saying it was deleted meanwhile.
    func read() throws -> StoredAccount {
        guard let current = try store.account(id: accountId) else {
            throw AuthFailure(.misconfigured, code: "gone", remedy: "account \(accountId) no longer exists")
        }
        return current
    }
}
