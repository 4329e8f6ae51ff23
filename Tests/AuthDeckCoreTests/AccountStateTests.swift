import Testing
import AuthDeckCore
import AuthDeckTestSupport

/// State derivation with a fixed clock: every transition, and the invariants of AccountState.
@Suite struct AccountStateTests {
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    let policy = StatePolicy(expiringSoonWindow: .minutes(10), clockSkew: .seconds(60))

    func stored(_ credentials: Credentials, signedIn: Bool = true, error: AccountError? = nil) -> StoredAccount {
        StoredAccount(account: Account(id: "p/1", providerId: "p", subject: "s", username: "u", createdAt: now - .days(3),
                                       lastSignInAt: signedIn ? now - .days(1) : nil, lastError: error),
                      credentials: credentials)
    }

    func at(_ expiresIn: TimeSpan?) -> AccessToken {
        AccessToken(id: "a", value: Secret("v"), scopes: ["x"], obtainedAt: now - .hours(1), expiresAt: expiresIn.map { now + $0 })
    }

    let rt = RefreshToken(id: "r", value: Secret("r"), generation: 1, obtainedAt: Instant(secondsSinceEpoch: 0))

    @Test func validTokenIsSignedIn() {
        #expect(AccountState.derive(stored(Credentials(accessTokens: [at(.hours(1))])), policy: policy, now: now) == .signedIn)
    }

    @Test func tokenWithoutExpiryIsSignedIn() {
        #expect(AccountState.derive(stored(Credentials(accessTokens: [at(nil)])), policy: policy, now: now) == .signedIn)
    }

    @Test func tokenInsideWindowIsExpiringSoon() {
        // 11 minutes left, minus 60 s skew = 10 min: inside the window.
        #expect(AccountState.derive(stored(Credentials(accessTokens: [at(.minutes(11))])), policy: policy, now: now) == .expiringSoon)
        #expect(AccountState.derive(stored(Credentials(accessTokens: [at(.minutes(12))])), policy: policy, now: now) == .signedIn)
    }

    @Test func skewMakesAlmostExpiredTokenExpired() {
        let s = stored(Credentials(accessTokens: [at(.seconds(30))], refreshToken: rt))
        #expect(AccountState.derive(s, policy: policy, now: now) == .expired(renewable: true))
    }

    @Test func expiredWithRefreshTokenIsRenewable() {
        let s = stored(Credentials(accessTokens: [at(.hours(-1))], refreshToken: rt))
        #expect(AccountState.derive(s, policy: policy, now: now) == .expired(renewable: true))
    }

    @Test func expiredWithoutRefreshTokenIsNotRenewableUnlessProviderRenewsSilently() {
        let s = stored(Credentials(accessTokens: [at(.hours(-1))]))
        #expect(AccountState.derive(s, policy: policy, now: now) == .expired(renewable: false))
        #expect(AccountState.derive(s, policy: policy, now: now, silentRenewal: true) == .expired(renewable: true))
    }

    @Test func lapsedRefreshTokenIsNotRenewable() {
        var lapsed = rt
        lapsed.expiresAt = now - .seconds(1)
        let s = stored(Credentials(accessTokens: [at(.hours(-1))], refreshToken: lapsed))
        #expect(AccountState.derive(s, policy: policy, now: now) == .expired(renewable: false))
    }

    @Test func needsInteractionErrorMeansNeedsSignIn() {
        let e = AccountError(errorClass: .needsInteraction, code: "AADSTS50076", remedy: "MFA required", at: now)
        let s = stored(Credentials(accessTokens: [at(.hours(-1))], refreshToken: rt), error: e)
        #expect(AccountState.derive(s, policy: policy, now: now) == .needsSignIn(reason: "MFA required"))
    }

    @Test func usableCredentialWinsOverAnOldError() {
        let e = AccountError(errorClass: .needsInteraction, code: "invalid_grant", remedy: "sign in", at: now - .hours(2))
        let s = stored(Credentials(accessTokens: [at(.hours(1))]), error: e)
        #expect(AccountState.derive(s, policy: policy, now: now) == .signedIn)
    }

    @Test func misconfiguredAndDeclinedAreFailed() {
        for cls in [ErrorClass.misconfigured, .declined] {
            let e = AccountError(errorClass: cls, code: "x", remedy: "fix it", at: now)
            #expect(AccountState.derive(stored(.empty, error: e), policy: policy, now: now) == .failed(reason: "fix it"))
        }
    }

    @Test func neverSignedInIsFailed() {
        #expect(AccountState.derive(stored(.empty, signedIn: false), policy: policy, now: now)
                == .failed(reason: "sign-in never completed"))
    }

    @Test func transientErrorNeverDowngrades() {
        let e = AccountError(errorClass: .transient, code: "timeout", remedy: "retry", at: now)
        let valid = stored(Credentials(accessTokens: [at(.hours(1))], refreshToken: rt), error: e)
        #expect(AccountState.derive(valid, policy: policy, now: now) == .signedIn)
        let expired = stored(Credentials(accessTokens: [at(.hours(-1))], refreshToken: rt), error: e)
        #expect(AccountState.derive(expired, policy: policy, now: now) == .expired(renewable: true))
    }

    @Test func cookiesNeedEveryCookieValid() {
        func cookie(_ name: String, _ span: TimeSpan?) -> Cookie {
            Cookie(id: name, name: name, value: Secret("v"), domain: "h", expiresAt: span.map { now + $0 })
        }
        let ok = stored(Credentials(cookies: [cookie("FedAuth", .hours(5)), cookie("rtFa", nil)]))
        #expect(AccountState.derive(ok, policy: policy, now: now) == .signedIn)
        let half = stored(Credentials(cookies: [cookie("FedAuth", .hours(-1)), cookie("rtFa", .hours(5))]))
        #expect(AccountState.derive(half, policy: policy, now: now) == .expired(renewable: false))
        #expect(AccountState.derive(half, policy: policy, now: now, silentRenewal: true) == .expired(renewable: true))
    }

    @Test func staleVerdictWins() {
        let s = stored(Credentials(accessTokens: [at(.hours(1))]))
        #expect(AccountState.derive(s, policy: policy, now: now, staleReason: .unused(days: 100))
                == .stale(reason: .unused(days: 100)))
    }

    @Test func fixtureAccountsDeriveToTheirExpectedStates() {
        let fixture = DeckFixture(now: now)
        let deck = DeckAssessment(accounts: fixture.accounts, providers: FixtureProviders.all, statePolicy: policy,
                                  pruneSettings: .standard, now: now)
        for entry in deck.entries {
            #expect(entry.state.key == fixture.expectedStates[entry.stored.account.id], "\(entry.stored.account.id)")
        }
        #expect(deck.entries.count == fixture.accounts.count)
    }

    @Test func assessmentKeepsTheStoreOrderAndLeavesQuarantinedAccountsOut() {
        // The entries are filled from the back (accounts are moved, not copied, into them):
        // the order must still be the store's, with every quarantined account left out.
        var accounts = DeckFixture(now: now).accounts
        for index in stride(from: 1, to: accounts.count, by: 3) { accounts[index].account.quarantinedAt = now - .days(1) }
        let kept = accounts.filter { $0.account.quarantinedAt == nil }
        let deck = DeckAssessment(accounts: accounts, providers: FixtureProviders.all, statePolicy: policy,
                                  pruneSettings: .standard, now: now)
        #expect(kept.count < accounts.count && !kept.isEmpty)
        #expect(deck.entries.map(\.stored) == kept)
        #expect(DeckAssessment(accounts: [], providers: nil, statePolicy: policy, pruneSettings: .standard, now: now).entries.isEmpty)
    }

    @Test func keyIndexIsThePlaceOfTheKeyInAllKeys() {
        let states: [AccountState] = [.signedIn, .expiringSoon, .expired(renewable: true), .expired(renewable: false),
                                      .needsSignIn(reason: "r"), .failed(reason: "f"), .stale(reason: .unused(days: 3))]
        for state in states { #expect(AccountState.allKeys[state.keyIndex] == state.key) }
        #expect(Set(states.map(\.keyIndex)) == Set(AccountState.allKeys.indices))
    }
}

/// The fixture's providers as profiles (mirrors `DeckFixture.configTOML`).
enum FixtureProviders {
    static let all: [ProviderProfile] = [
        ProviderProfile(id: "work", kind: .azuread, options: ["tenant": "common"]),
        ProviderProfile(id: "prod", kind: .azuread, options: ["tenant": DeckFixture.prodTenant]),
        ProviderProfile(id: "sp", kind: .sharepoint),
        ProviderProfile(id: "fb", kind: .facebook),
        ProviderProfile(id: "gl", kind: .oidc),
    ]
}
