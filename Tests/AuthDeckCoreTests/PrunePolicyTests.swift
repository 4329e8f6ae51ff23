import Testing
import AuthDeckCore
import AuthDeckTestSupport

/// Every prune reason, and the accounts that must never be pruned.
@Suite struct PrunePolicyTests {
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    let settings = PruneSettings(signInGrace: .hours(1), rejectedGrace: .days(14), unusedAfter: .days(90))

    func reasons(_ accounts: [StoredAccount], providers: [ProviderProfile]? = FixtureProviders.all,
                 settings: PruneSettings? = nil) -> [String: String] {
        PrunePolicy.staleReasons(accounts, providers: providers, settings: settings ?? self.settings,
                                 statePolicy: .standard, now: now).mapValues(\.key)
    }

    @Test func fixtureCandidatesAreExactlyTheStaleOnes() {
        let fixture = DeckFixture(now: now)
        #expect(reasons(fixture.accounts) == fixture.expectedPrune)
    }

    @Test func candidatesCarryTheirDetails() {
        let fixture = DeckFixture(now: now)
        let byId = PrunePolicy.staleReasons(fixture.accounts, providers: FixtureProviders.all, settings: settings,
                                            statePolicy: .standard, now: now)
        #expect(byId["prod/0000a008"] == .wrongTenant(expected: DeckFixture.prodTenant, actual: DeckFixture.devTenant))
        #expect(byId["work/0000a009"] == .duplicate(keptId: "work/0000a001"))
        #expect(byId["work/0000a010"] == .renewalRejected(since: now - .days(20)))
        #expect(byId["work/0000a013"] == .unused(days: 100, limit: .days(90)))
        #expect(byId["legacy/0000a014"] == .providerRemoved(providerId: "legacy"))
    }

    func account(_ id: String, provider: String = "work", subject: String = "s", created: TimeSpan, signedIn: TimeSpan?,
                 error: AccountError? = nil, realm: String? = nil) -> Account {
        Account(id: id, providerId: provider, subject: subject, username: id, realm: realm, createdAt: now - created,
                lastSignInAt: signedIn.map { now - $0 }, lastError: error)
    }

    @Test func signInInProgressIsNotPrunedBeforeTheGrace() {
        let fresh = StoredAccount(account: account("work/1", created: .minutes(59), signedIn: nil))
        #expect(reasons([fresh]).isEmpty)
        let old = StoredAccount(account: account("work/1", created: .minutes(61), signedIn: nil))
        #expect(reasons([old]) == ["work/1": "never-completed"])
    }

    @Test func transientErrorNeverMakesAnAccountStale() {
        let transient = AccountError(errorClass: .transient, code: "503", remedy: "retry", at: now - .days(60))
        let neverCompleted = StoredAccount(account: account("work/1", created: .days(5), signedIn: nil, error: transient))
        let expired = StoredAccount(account: account("work/2", subject: "t", created: .days(5), signedIn: .days(1), error: transient),
                                    credentials: Credentials(refreshToken: RefreshToken(id: "r", value: Secret("x"), generation: 1, obtainedAt: now)))
        #expect(reasons([neverCompleted, expired]).isEmpty)
    }

    @Test func rejectedRenewalWaitsForTheGraceAndIgnoresLaterSignIns() {
        let recent = AccountError(errorClass: .needsInteraction, code: "invalid_grant", remedy: "sign in", at: now - .days(13))
        #expect(reasons([StoredAccount(account: account("work/1", created: .days(30), signedIn: .days(20), error: recent))]).isEmpty)
        let old = AccountError(errorClass: .needsInteraction, code: "invalid_grant", remedy: "sign in", at: now - .days(15))
        #expect(reasons([StoredAccount(account: account("work/1", created: .days(30), signedIn: .days(20), error: old))])
                == ["work/1": "rejected"])
        // A sign-in after the error means the error is history.
        #expect(reasons([StoredAccount(account: account("work/1", created: .days(30), signedIn: .days(2), error: old))]).isEmpty)
    }

    @Test func rejectedRenewalWithAUsableTokenIsKept() {
        let old = AccountError(errorClass: .needsInteraction, code: "invalid_grant", remedy: "sign in", at: now - .days(15))
        let token = AccessToken(id: "a", value: Secret("v"), scopes: [], obtainedAt: now, expiresAt: now + .hours(1))
        let s = StoredAccount(account: account("work/1", created: .days(30), signedIn: .days(20), error: old),
                              credentials: Credentials(accessTokens: [token]))
        #expect(reasons([s]).isEmpty)
    }

    @Test func wrongTenantNeedsComparableRealms() {
        let pinnedByDomain = [ProviderProfile(id: "work", kind: .azuread, options: ["tenant": "contoso.com"])]
        let guidRealm = StoredAccount(account: account("work/1", created: .days(1), signedIn: .hours(1), realm: DeckFixture.devTenant))
        #expect(reasons([guidRealm], providers: pinnedByDomain).isEmpty)
        let common = [ProviderProfile(id: "work", kind: .azuread, options: ["tenant": "organizations"])]
        #expect(reasons([guidRealm], providers: common).isEmpty)
        let pinned = [ProviderProfile(id: "work", kind: .azuread, options: ["tenant": DeckFixture.prodTenant.uppercased()])]
        let sameTenant = StoredAccount(account: account("work/2", created: .days(1), signedIn: .hours(1), realm: DeckFixture.prodTenant))
        #expect(reasons([sameTenant], providers: pinned).isEmpty)
        #expect(reasons([guidRealm], providers: pinned) == ["work/1": "wrong-tenant"])
    }

    @Test func duplicateKeepsTheBestOfTheGroup() {
        let token = AccessToken(id: "a", value: Secret("v"), scopes: [], obtainedAt: now, expiresAt: now + .hours(1))
        let newerButEmpty = StoredAccount(account: account("work/b", created: .days(1), signedIn: .hours(1)))
        let olderButUsable = StoredAccount(account: account("work/a", created: .days(9), signedIn: .days(3)),
                                           credentials: Credentials(accessTokens: [token]))
        let got = PrunePolicy.staleReasons([newerButEmpty, olderButUsable], providers: FixtureProviders.all,
                                           settings: settings, statePolicy: .standard, now: now)
        #expect(got == ["work/b": .duplicate(keptId: "work/a")])
        // Same subject at another provider is not a duplicate.
        let other = StoredAccount(account: account("gl/c", provider: "gl", created: .days(1), signedIn: .hours(1)))
        #expect(reasons([olderButUsable, other]).isEmpty)
    }

    @Test func unusedRuleCanBeTurnedOff() {
        let s = StoredAccount(account: account("work/1", created: .days(400), signedIn: .days(300)))
        #expect(reasons([s]) == ["work/1": "unused"])
        #expect(reasons([s], settings: PruneSettings(unusedAfter: nil)).isEmpty)
    }

    @Test func unknownConfigNeverPrunesForRemovedProvider() {
        let s = StoredAccount(account: account("legacy/1", provider: "legacy", created: .days(1), signedIn: .hours(1)))
        #expect(reasons([s], providers: nil).isEmpty)
        #expect(reasons([s], providers: []) == ["legacy/1": "provider-removed"])
    }

    @Test func quarantinedAccountsAreNotCandidatesAgain() {
        var a = account("work/1", created: .days(5), signedIn: nil)
        a.quarantinedAt = now - .days(1)
        #expect(reasons([StoredAccount(account: a)]).isEmpty)
    }
}
