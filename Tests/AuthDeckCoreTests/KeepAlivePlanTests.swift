import Testing
import AuthDeckCore

/// Staying signed in, decided without a clock: renew `renew_before` ahead, warn ahead for what
/// cannot renew, tell about what needs a person, and say when to look again.
@Suite struct KeepAlivePlanTests {
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    let skew = TimeSpan.seconds(60)

    func account(_ id: String, tokenIn: TimeSpan?, refresh: Bool = true, error: ErrorClass? = nil) -> StoredAccount {
        let token = tokenIn.map { AccessToken(id: "a", value: Secret("v"), scopes: ["x"], obtainedAt: now - .hours(1), expiresAt: now + $0) }
        return StoredAccount(
            account: Account(id: id, providerId: String(id.split(separator: "/")[0]), subject: id, username: id, createdAt: now - .days(3),
                             lastSignInAt: now - .days(1),
                             lastError: error.map { AccountError(errorClass: $0, code: "invalid_grant", remedy: "sign in again", at: now - .minutes(1)) }),
            credentials: Credentials(accessTokens: token.map { [$0] } ?? [],
                                     refreshToken: refresh ? RefreshToken(id: "r", value: Secret("r"), generation: 1, obtainedAt: now - .days(1)) : nil))
    }

    func plan(_ accounts: [StoredAccount], silent: Set<String> = [], before: TimeSpan = .minutes(5)) -> KeepAlivePlan {
        let assessment = DeckAssessment(accounts: accounts, providers: nil, statePolicy: StatePolicy(clockSkew: skew),
                                        pruneSettings: .standard, now: now)
        return KeepAlivePlan(assessment, skew: skew, renewBefore: { $0.account.providerId == "gone" ? nil : before },
                             silentRenewal: { silent.contains($0.account.providerId) })
    }

    @Test func renewsOnlyWhatIsInsideRenewBeforeAndWakesForTheRest() {
        // Expiry minus skew minus renew_before: 5 min 30 s left is inside (30 s < 60 s skew + 5 min).
        let p = plan([account("work/1", tokenIn: .seconds(330)), account("work/2", tokenIn: .hours(1))])
        #expect(p.steps == [.renew(accountId: "work/1")])
        #expect(p.nextCheck == now + .hours(1) - skew - .minutes(5))
    }

    @Test func anExpiredRenewableAccountIsRenewedAndAnExpiredDeadEndNeedsAPerson() {
        let p = plan([account("work/1", tokenIn: .seconds(-10)), account("fb/1", tokenIn: .seconds(-10), refresh: false)])
        #expect(p.steps.contains(.renew(accountId: "work/1")))
        #expect(p.steps.contains { if case .needsSignIn("fb/1", _) = $0 { return true } else { return false } })
    }

    @Test func aTokenThatCannotRenewGetsANoticeAheadAndAWakeAtItsLapse() {
        let p = plan([account("fb/1", tokenIn: .minutes(4), refresh: false)])
        #expect(p.steps == [.expiring(accountId: "fb/1", at: now + .minutes(4))])
        #expect(p.nextCheck == now + .minutes(4) - skew)
        // The same provider with silent renewal (an app secret) renews instead.
        #expect(plan([account("fb/1", tokenIn: .minutes(4), refresh: false)], silent: ["fb"]).steps == [.renew(accountId: "fb/1")])
    }

    @Test func aRefusedGrantIsNotRetriedEvenWhileItsTokenLooksValid() {
        let p = plan([account("work/1", tokenIn: .minutes(2), error: .needsInteraction)])
        #expect(p.steps == [.needsSignIn(accountId: "work/1", remedy: "sign in again")])
        // A passing failure (the network) does not stop renewal.
        #expect(plan([account("work/1", tokenIn: .minutes(2), error: .transient)]).steps == [.renew(accountId: "work/1")])
    }

    @Test func anAccountOfAnUnconfiguredProviderIsLeftAlone() {
        let p = plan([account("gone/1", tokenIn: .seconds(-10))])
        #expect(p.steps.isEmpty)
        #expect(p.nextCheck == nil)
    }

    @Test func renewalDueForTheDeck() {
        let assessment = DeckAssessment(accounts: [account("work/1", tokenIn: .hours(1)), account("fb/1", tokenIn: .hours(1), refresh: false)],
                                        providers: nil, statePolicy: StatePolicy(clockSkew: skew), pruneSettings: .standard, now: now)
        let due = assessment.entries.map { KeepAlivePlan.renewalDue($0, now: now, skew: skew, renewBefore: .minutes(5), silentRenewal: false) }
        #expect(due == [now + .hours(1) - skew - .minutes(5), nil])
    }
}
