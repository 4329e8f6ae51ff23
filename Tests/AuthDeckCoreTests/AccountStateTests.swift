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

    /// Inside the skew margin but not expired: `renewDue`, one state with one name (issue 31,
    /// item 5); once truly expired, `expired`; without a way to renew, `expired` at once.
    @Test func skewMakesAlmostExpiredTokenRenewDue() {
        let s = stored(Credentials(accessTokens: [at(.seconds(30))], refreshToken: rt))
        #expect(AccountState.derive(s, policy: policy, now: now) == .renewDue)
        #expect(AccountState.derive(s, policy: policy, now: now) .key == "renew_due")
        #expect(AccountState.derive(s, policy: policy, now: now).renewable == true)
        #expect(AccountState.derive(s, policy: policy, now: now + .seconds(31)) == .expired(renewable: true))
        #expect(AccountState.derive(stored(Credentials(accessTokens: [at(.seconds(30))])), policy: policy, now: now) == .expired(renewable: false))
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
        #expect(AccountState.derive(s, policy: policy, now: now, staleReason: .unused(days: 100, limit: .days(90)))
                == .stale(reason: .unused(days: 100, limit: .days(90))))
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
        let states: [AccountState] = [.signedIn, .expiringSoon, .renewDue, .expired(renewable: true), .expired(renewable: false),
                                      .needsSignIn(reason: "r"), .failed(reason: "f"), .stale(reason: .unused(days: 3, limit: .days(1)))]
        for state in states { #expect(AccountState.allKeys[state.keyIndex] == state.key) }
        #expect(Set(states.map(\.keyIndex)) == Set(AccountState.allKeys.indices))
    }

    // MARK: Renewable only with what renewal needs (issue 22)

    /// An OAM account signed out with its preferences kept holds no token: it needs a sign-in,
    /// although OAM as a kind renews silently.
    @Test func aSignedOutOAMAccountNeedsASignInNotARenewal() {
        let oam = ProviderProfile(id: "p", kind: .oam, clientId: "c")
        let kept = Credentials(extras: ["oam.remember": Secret("credentials")])
        let state = AccountState.derive(stored(kept), policy: policy, now: now,
                                        silentRenewal: ProviderCapabilities.renewsWithoutRefreshToken(oam, kept))
        #expect(state == .needsSignIn(reason: "holds no token; sign in again"))
        #expect(state.key == "needs_sign_in")
    }

    /// Every provider kind (with the options that change its renewal), every combination of
    /// access token, refresh token, cookies and extras: the state is `expired(renewable: true)`
    /// exactly when the adapter's `renew` has what it needs, as written here from each adapter.
    @Test func renewableExactlyWhenRenewalHasWhatItNeedsForEveryKindAndCombination() {
        struct Variant { let profile: ProviderProfile; let usesRefreshToken: Bool; let renewsWith: (Credentials) -> Bool }
        let variants: [Variant] = [
            // Refresh token, or a client-credentials account (renewed with the client's secret).
            Variant(profile: ProviderProfile(id: "p", kind: .azuread, clientId: "c"), usesRefreshToken: true) { $0.extras["grant"] != nil },
            Variant(profile: ProviderProfile(id: "p", kind: .oidc, clientId: "c"), usesRefreshToken: true) { $0.extras["grant"] != nil },
            // OAM also signs in again with an auto-login password, but only after a refresh
            // token is refused: without one, it is not counted as renewable.
            Variant(profile: ProviderProfile(id: "p", kind: .oam, clientId: "c"), usesRefreshToken: true) { $0.extras["grant"] != nil },
            // Legacy SharePoint signs in again with the remembered username and password.
            Variant(profile: ProviderProfile(id: "p", kind: .sharepoint, options: ["mode": "legacy", "remember_password": "true"]),
                    usesRefreshToken: false) { $0.extras["legacy.password"] != nil && $0.extras["legacy.username"] != nil },
            Variant(profile: ProviderProfile(id: "p", kind: .sharepoint, options: ["mode": "legacy"]), usesRefreshToken: false) { _ in false },
            // Modern SharePoint exchanges the linked Azure AD account's token for cookies.
            Variant(profile: ProviderProfile(id: "p", kind: .sharepoint, options: ["azure_provider": "work"]),
                    usesRefreshToken: false) { $0.extras["azure.account"] != nil },
            Variant(profile: ProviderProfile(id: "p", kind: .sharepoint), usesRefreshToken: false) { _ in false },
            // Facebook with an app secret exchanges the token it holds; without one, nothing.
            Variant(profile: ProviderProfile(id: "p", kind: .facebook, clientId: "c", clientSecretEnv: "FB"),
                    usesRefreshToken: false) { !$0.accessTokens.isEmpty },
            Variant(profile: ProviderProfile(id: "p", kind: .facebook, clientId: "c"), usesRefreshToken: false) { _ in false },
        ]
        var lapsed = rt
        lapsed.expiresAt = now - .seconds(1)
        let extraSets: [[String]] = [["grant"], ["legacy.username", "legacy.password"], ["azure.account"], ["oam.remember"], ["oam.password"], ["oam.verifier"]]
        let expiredCookie = Cookie(id: "c", name: "FedAuth", value: Secret("v"), domain: "h", expiresAt: now - .hours(1))
        var checked = 0
        for variant in variants {
            for access in [nil, at(.hours(-1)), at(.hours(2))] {
                for refresh in variant.usesRefreshToken ? [nil, rt, lapsed] : [nil] {
                    for cookies in [[], [expiredCookie]] {
                        for mask in 0..<(1 << extraSets.count) {
                            var extras: [String: Secret] = [:]
                            for (bit, names) in extraSets.enumerated() where mask & (1 << bit) != 0 {
                                for name in names { extras[name] = Secret("x") }
                            }
                            let credentials = Credentials(accessTokens: access.map { [$0] } ?? [], refreshToken: refresh, cookies: cookies, extras: extras)
                            let state = AccountState.derive(stored(credentials), policy: policy, now: now,
                                                            silentRenewal: ProviderCapabilities.renewsWithoutRefreshToken(variant.profile, credentials))
                            let expected: AccountState
                            if access.map({ $0.isValid(at: now, skew: policy.clockSkew) }) == true {
                                expected = .signedIn
                            } else if (refresh?.isUsable(at: now) ?? false) || variant.renewsWith(credentials) {
                                expected = .expired(renewable: true)
                            } else if access == nil && cookies.isEmpty {
                                expected = .needsSignIn(reason: "holds no token; sign in again")
                            } else {
                                expected = .expired(renewable: false)
                            }
                            #expect(state == expected, "\(variant.profile.kind) \(variant.profile.options) access \(access?.expiresAt.map(\.secondsSinceEpoch) ?? -1) refresh \(refresh?.expiresAt == nil ? (refresh == nil ? "none" : "usable") : "lapsed") cookies \(cookies.count) extras \(extras.keys.sorted())")
                            if refresh == nil, case .expired(true) = state { #expect(variant.renewsWith(credentials), "renewable without a refresh token only with what renewal needs") }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 3 * (3 * 3 + 6 * 1) * 2 * 64)
    }
    /// `DeckAssessment.nextChange` is never late: walking from boundary to boundary, the state
    /// holds until the next one, and the walk passes through every state time brings.
    @Test func timeAloneChangesAStateOnlyAtTheNextChange() {
        let settings = PruneSettings(signInGrace: .hours(1), rejectedGrace: .days(14), unusedAfter: .days(90))
        let expiring = RefreshToken(id: "r", value: Secret("r"), generation: 1, obtainedAt: now, expiresAt: now + .hours(5))
        let s = stored(Credentials(accessTokens: [at(.hours(1)), at(.hours(3))], refreshToken: expiring))
        func state(_ t: Instant) -> AccountState {
            let stale = PrunePolicy.staleReasons([s], providers: nil, settings: settings, statePolicy: policy, now: t)
            return AccountState.derive(s, policy: policy, now: t, staleReason: stale[s.account.id])
        }
        var t = now
        var seen = [state(t)]
        while let next = DeckAssessment.nextChange(s, statePolicy: policy, pruneSettings: settings, now: t) {
            #expect(next > t)
            #expect(state(next - .seconds(1)) == state(t), "changed before \(next.secondsSinceEpoch - now.secondsSinceEpoch) s")
            if state(next) != seen.last! { seen.append(state(next)) }
            t = next
        }
        #expect(seen == [.signedIn, .expiringSoon, .renewDue, .expired(renewable: true), .expired(renewable: false),
                         .stale(reason: .unused(days: 90, limit: .days(90)))])
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
