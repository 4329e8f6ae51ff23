import Testing
import Synchronization
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// The one renewal service over a real store with an adapter of the test's own: which need
/// renews and how far ahead, the pacing of renewals ahead (back-off, 30 s after a success),
/// the bound on renewals at once, and the use cases that go through it (`token`, `exec`).
@Suite struct RenewalTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()

    /// An adapter whose renewals succeed with a token of `life`, or fail as told, and which
    /// counts its calls and the most that ran at once.
    final class Adapter: ProviderAdapter, Sendable {
        let profile: ProviderProfile
        var capabilities: ProviderCapabilities { .of(profile) }
        let clock: MutableClock
        let life: TimeSpan
        let pause: UInt64
        let failure = Mutex<AuthFailure?>(nil)
        let counts = Mutex((calls: 0, running: 0, most: 0))

        init(_ profile: ProviderProfile, clock: MutableClock, life: TimeSpan = .minutes(20), pauseMilliseconds: UInt64 = 0) {
            self.profile = profile
            self.clock = clock
            self.life = life
            pause = pauseMilliseconds
        }

        var calls: Int { counts.withLock { $0.calls } }

        func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
            throw AuthFailure(.misconfigured, code: "unused", remedy: "unused")
        }
        func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials {
            let n = counts.withLock { $0.calls += 1; $0.running += 1; $0.most = max($0.most, $0.running); return $0.calls }
            defer { counts.withLock { $0.running -= 1 } }
            if pause > 0 { try await Task.sleep(nanoseconds: pause * 1_000_000) }
            if let failure = failure.withLock({ $0 }) { throw failure }
            return Credentials(accessTokens: [AccessToken(id: "at-\(n)", value: Secret("renewed-\(n)"), scopes: ["openid"],
                                                          obtainedAt: clock.now(), expiresAt: clock.now() + life)],
                               refreshToken: RefreshToken(id: "rt-\(n)", value: Secret("rt-\(n)"), generation: 10 + n, obtainedAt: clock.now()))
        }
        func revoke(_ stored: StoredAccount) async throws {}
    }

    var profile: ProviderProfile {
        var p = ProviderProfile(id: "work", kind: .oidc, clientId: "c")
        p.renewBefore = .minutes(30)
        return p
    }

    /// A real store with `count` accounts of provider "work" whose token lapses in `expiresIn`,
    /// and the wiring that builds `adapter` for them.
    func setUp(_ adapter: Adapter, count: Int = 1, expiresIn: TimeSpan = .minutes(20)) throws -> (ProviderWiring, DeckConfig, [Account]) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        var accounts: [Account] = []
        for i in 0..<count {
            let account = Account(id: "work/a\(i)", providerId: "work", subject: "s\(i)", username: "u\(i)@example.com", displayName: "",
                                  realm: nil, createdAt: clock.now() - .days(1), lastSignInAt: clock.now() - .hours(1), lastUsedAt: nil, lastError: nil)
            let credentials = Credentials(accessTokens: [AccessToken(id: "at-cached-\(i)", value: Secret("cached-\(i)"), scopes: ["openid"],
                                                                     obtainedAt: clock.now() - .hours(1), expiresAt: clock.now() + expiresIn)],
                                          refreshToken: RefreshToken(id: "rt-old-\(i)", value: Secret("rt-old-\(i)"), generation: 1, obtainedAt: clock.now() - .hours(1)))
            try store.insert(StoredAccount(account: account, credentials: credentials))
            accounts.append(account)
        }
        let config = DeckConfig(path: dir.file("config.toml"), fileExists: true, providers: [profile])
        let wiring = ProviderWiring(store: store, clock: clock, environment: [:], adapters: { _, _, _ in adapter })
        return (wiring, config, accounts)
    }

    @Test func eachNeedRenewsOnlyWhenItMustAndAsFarAheadAsItSays() async throws {
        let adapter = Adapter(profile, clock: clock)
        let (wiring, config, accounts) = try setUp(adapter, expiresIn: .minutes(20))
        let renewal = Renewal(wiring: wiring, config: config)
        let account = accounts[0]
        // 19 minutes left after the skew margin: usable now and not expiring soon (10 min)…
        #expect(try await renewal.renew(account, need: .usableNow(scopes: [])).credentials.accessTokens[0].value.exposedValue == "cached-0")
        _ = try await renewal.renew(account, need: .expiringSoon)
        #expect(adapter.calls == 0)
        // …but not outliving the provider's renew_before (30 min).
        let ahead = try await renewal.renew(account, need: .ahead(scopes: []))
        #expect(adapter.calls == 1)
        #expect(try wiring.store.account(id: account.id)?.credentials.refreshToken?.value.exposedValue == "rt-1",
                "committed before it was handed out")
        #expect(ahead.credentials.accessTokens.contains { $0.value.exposedValue == "renewed-1" })
        _ = try await renewal.renew(account, need: .force)
        #expect(adapter.calls == 2, "force renews however fresh")
        // A token for scopes the cached one lacks is a renewal even when the cached one is fresh.
        _ = try await renewal.renew(account, need: .usableNow(scopes: ["Mail.Read"]))
        #expect(adapter.calls == 3)
    }

    @Test func renewalsAheadBackOffAfterFailuresAndWait30sAfterASuccess() async throws {
        let adapter = Adapter(profile, clock: clock)
        let (wiring, config, accounts) = try setUp(adapter)
        let pacing = RenewalPacing()
        let renewal = Renewal(wiring: wiring, config: config, pacing: pacing)
        let account = accounts[0]
        let start = clock.now()
        adapter.failure.withLock { $0 = AuthFailure(.transient, code: "http 503", remedy: "the provider is unavailable") }

        guard case .failed(_, let first) = await renewal.attempt(account, need: .ahead(scopes: [])) else { Issue.record("not failed"); return }
        #expect(first == start + .seconds(5))
        guard case .deferred(let until) = await renewal.attempt(account, need: .ahead(scopes: [])) else { Issue.record("not deferred"); return }
        #expect(until == first)
        #expect(adapter.calls == 1, "a paced renewal asks nobody")
        // Someone waiting (Enter, `refresh NAME`) is never held back, and the failure counts.
        guard case .failed(_, let second) = await renewal.attempt(account, need: .force) else { Issue.record("not failed"); return }
        #expect(second == start + .seconds(10))
        #expect(pacing.failures(account.id) == 2)
        for _ in 0..<10 { _ = await renewal.attempt(account, need: .force) }
        clock.advance(.seconds(301))
        guard case .failed(_, let capped) = await renewal.attempt(account, need: .ahead(scopes: [])) else { Issue.record("not failed"); return }
        #expect(capped == clock.now() + .seconds(300), "never more than 5 minutes")

        adapter.failure.withLock { $0 = nil }
        clock.advance(.seconds(300))
        guard case .renewed = await renewal.attempt(account, need: .ahead(scopes: [])) else { Issue.record("not renewed"); return }
        #expect(pacing.failures(account.id) == 0, "a success starts the count again")
        // The new token (20 min) still does not outlive renew_before (30 min): due, but paced.
        guard case .deferred(let next) = await renewal.attempt(account, need: .ahead(scopes: [])) else { Issue.record("not deferred"); return }
        #expect(next == clock.now() + .seconds(30))
        clock.advance(.seconds(30))
        let calls = adapter.calls
        guard case .renewed = await renewal.attempt(account, need: .ahead(scopes: [])) else { Issue.record("not renewed"); return }
        #expect(adapter.calls == calls + 1)
    }

    /// A 5-second token (clock skew 1 s, renew_before 2 s) is renewed again 2 s after a
    /// success — half its usable life — not 30 s later, when it would long have lapsed.
    @Test func aShortTokenIsRenewedAgainBeforeItLapses() async throws {
        let adapter = Adapter(profile, clock: clock, life: .seconds(5))
        var (wiring, config, accounts) = try setUp(adapter, expiresIn: .seconds(5))
        config.statePolicy = StatePolicy(clockSkew: .seconds(1))
        let pacing = RenewalPacing()
        let renewal = Renewal(wiring: wiring, config: config, pacing: pacing)
        guard case .renewed = await renewal.attempt(accounts[0], need: .ahead(scopes: [])) else { Issue.record("not renewed"); return }
        #expect(pacing.notBefore(accounts[0].id) == clock.now() + .seconds(2))
    }

    @Test func atMostThePacingsLimitRunAtOnce() async throws {
        let adapter = Adapter(profile, clock: clock, pauseMilliseconds: 40)
        let (wiring, config, accounts) = try setUp(adapter, count: 6)
        let attempts = await Renewal(wiring: wiring, config: config, pacing: RenewalPacing(parallel: 2))
            .attemptAll(accounts.map { ($0, RenewalNeed.force) })
        #expect(attempts.map(\.account.id) == accounts.map(\.id).sorted())
        #expect(attempts.allSatisfy { if case .renewed = $0.attempt { true } else { false } })
        #expect(adapter.calls == 6)
        #expect(adapter.counts.withLock { $0.most } == 2)
    }

    @Test func tokenServesTheCachedOneAndRenewsAnExpiredOneBeforeHandingItOut() async throws {
        let adapter = Adapter(profile, clock: clock, life: .hours(1))
        let (wiring, config, accounts) = try setUp(adapter, expiresIn: .seconds(30))
        let access = TokenAccess(wiring: wiring, config: config)
        // 30 s left is inside the 60 s skew margin: renewed.
        let stored = try #require(try wiring.store.account(id: accounts[0].id))
        let token = try await access.token(stored, scopes: [])
        #expect(token.value.exposedValue == "renewed-1")
        #expect(try wiring.store.account(id: accounts[0].id)?.credentials.accessTokens.contains { $0.value.exposedValue == "renewed-1" } == true)
        let again = try await access.token(try #require(try wiring.store.account(id: accounts[0].id)), scopes: [])
        #expect(again.value.exposedValue == "renewed-1")
        #expect(adapter.calls == 1, "a cached token asks nobody")
    }

    @Test func execUsesTheCurrentCredentialWithAWarningWhenTheProviderIsDown() async throws {
        let adapter = Adapter(profile, clock: clock)
        let (wiring, config, accounts) = try setUp(adapter, expiresIn: .minutes(20))
        adapter.failure.withLock { $0 = AuthFailure(.transient, code: "http 503", remedy: "the provider is unavailable") }
        let stored = try #require(try wiring.store.account(id: accounts[0].id))
        let (kept, warning) = try await FreshCredentials(wiring: wiring, config: config).run(stored, scopes: [])
        #expect(kept.credentials.accessTokens[0].value.exposedValue == "cached-0")
        #expect(warning == "work/a0 could not be renewed (the provider is unavailable [http 503]); using its current credential")
        #expect(try wiring.store.account(id: accounts[0].id)?.account.lastError == nil, "a transient error changes nothing")
        adapter.failure.withLock { $0 = AuthFailure(.needsInteraction, code: "invalid_grant", remedy: "sign in again") }
        await #expect(throws: AuthFailure.self) { try await FreshCredentials(wiring: wiring, config: config).run(stored, scopes: []) }
    }

    /// A failed renewal reaches a script as one sentence naming the account once, with the
    /// exit status of its class (`ReportedError`), whichever command reports it.
    @Test func aRefusedRenewalIsReportedOnceWithTheAccountAndExit3() async throws {
        let adapter = Adapter(profile, clock: clock)
        let (wiring, config, accounts) = try setUp(adapter, expiresIn: .seconds(-10))
        adapter.failure.withLock { $0 = AuthFailure(.needsInteraction, code: "invalid_grant", remedy: "the grant was revoked; sign in again") }
        let stored = try #require(try wiring.store.account(id: accounts[0].id))
        do {
            _ = try await TokenAccess(wiring: wiring, config: config).token(stored, scopes: [])
            Issue.record("a token was handed out")
        } catch let error as ReportedError {
            #expect(error.sentence == "work/a0: the grant was revoked; sign in again [invalid_grant]")
            #expect(error.exitStatus == ExitStatus.needsSignIn)
        }
        let named = AuthFailure(.transient, code: "http 503", remedy: "work/a0 could not be renewed").naming("work/a0")
        #expect(named.sentence == "work/a0 could not be renewed [http 503]", "not twice")
        #expect(named.exitStatus == ExitStatus.transient)
    }

    /// Records what `watch`'s hooks would have run.
    final class Hooks: HookSink, Sendable {
        let runs = Mutex<[String]>([])
        func run(_ command: String, event: String, account: Account, expiresAt: Instant?, message: String?) async -> Int32? {
            runs.withLock { $0.append("\(event) \(account.id)") }
            return 0
        }
    }

    /// `watch`'s pass below the binary: renews what is due, backs off after a passing failure
    /// (asking nobody until then), and tells a needed sign-in to its hook once.
    @Test func aWatchPassRenewsBacksOffAndTellsASignInOnce() async throws {
        let adapter = Adapter(profile, clock: clock, life: .hours(1))
        var (wiring, config, _) = try setUp(adapter, expiresIn: .minutes(20))
        config.hooks = DeckHooks(onRenewed: "renewed", onNeedsSignIn: "needs")
        let lines = Mutex<[String]>([])
        let hooks = Hooks()
        var watch = KeepAlive(wiring: wiring, log: { line in lines.withLock { $0.append(line) } }) { _ in hooks }

        // The token (20 min) does not outlive renew_before (30 min): renewed, and the next pass
        // is due when the new one (1 h) enters renew_before.
        let first = await watch.pass(config: config)
        let next = first.next
        // What the pass did, as `watch --verbose` ends it and `watch --once --json` lists it (round 3, item 3).
        #expect(first.summary == "1 renewed" && first.outcomes.map(\.accountId) == ["work/a0"], "\(first.summary)")
        #expect(adapter.calls == 1)
        #expect(hooks.runs.withLock { $0 } == ["renewed work/a0"])
        #expect(next == clock.now() + .hours(1) - .seconds(60) - .minutes(30))

        clock.advance(.minutes(31))
        adapter.failure.withLock { $0 = AuthFailure(.transient, code: "http 503", remedy: "the provider is unavailable") }
        let failed = await watch.pass(config: config)
        #expect(failed.next == clock.now() + .seconds(5))
        #expect(failed.summary == "1 not renewed (tried again later)", "\(failed.summary)")
        #expect(lines.withLock { $0.last }?.hasSuffix("work/a0 was not renewed (the provider is unavailable [http 503]); nothing was changed, trying again in 5 s") == true)
        let held = await watch.pass(config: config)
        #expect(held.next == clock.now() + .seconds(5), "inside the back-off: nobody asked")
        #expect(held.summary == "1 waiting out a back-off", "\(held.summary)")
        #expect(adapter.calls == 2)

        clock.advance(.seconds(5))
        adapter.failure.withLock { $0 = AuthFailure(.needsInteraction, code: "invalid_grant", remedy: "the grant was revoked") }
        #expect(await watch.pass(config: config).summary == "1 needs a sign-in")
        _ = await watch.pass(config: config)
        #expect(hooks.runs.withLock { $0 } == ["renewed work/a0", "needs_sign_in work/a0"], "told once")
    }

    /// `refresh` below the binary: `--all` renews what expires soon and reports what needs a
    /// person; a named account is renewed however fresh; a gone provider is named.
    @Test func refreshRenewsWhatIsDueAndSaysWhatCannot() async throws {
        let adapter = Adapter(profile, clock: clock, life: .hours(1))
        let (wiring, config, accounts) = try setUp(adapter, count: 2, expiresIn: .minutes(5))
        let refresh = Refresh(wiring: wiring, config: config)
        let (targets, needSignIn) = try await refresh.due(force: false)
        #expect(targets.map(\.stored.account.id) == ["work/a0", "work/a1"])
        #expect(needSignIn.isEmpty)
        let results = await refresh.run(targets, named: false, parallel: 1)
        #expect(results.allSatisfy { $0.ok })
        #expect(results.map(\.expiresAt) == [clock.now() + .hours(1), clock.now() + .hours(1)])
        #expect(try await refresh.due(force: false).targets.isEmpty, "nothing due after")
        let named = await refresh.run([(try #require(try wiring.store.account(id: accounts[0].id)), true)], named: true, parallel: 1)
        #expect(named.first?.ok == true)
        #expect(adapter.calls == 3, "a named account is renewed however fresh")
        var gone = config
        gone.providers = []
        let orphan = await Refresh(wiring: wiring, config: gone).run([(try #require(try wiring.store.account(id: accounts[1].id)), true)], named: true, parallel: 1)
        #expect(orphan.first?.failure?.remedy.hasPrefix("no provider \"work\" in") == true)
    }

    /// `refresh ACCOUNT` says when the token it just renewed expires, not when another
    /// audience's token the account also holds does (it said the other one's hour while the
    /// renewed token lived 30 s).
    @Test func refreshSaysTheExpiryOfTheTokenItRenewed() async throws {
        let adapter = Adapter(profile, clock: clock, life: .seconds(30))
        let (wiring, config, accounts) = try setUp(adapter, expiresIn: .minutes(-1))
        var stored = try #require(try wiring.store.account(id: accounts[0].id))
        stored.credentials.accessTokens.append(AccessToken(id: "sp", value: Secret("sharepoint"), scopes: ["AllSites.Read"],
                                                           requestedScopes: ["https://contoso.sharepoint.com/.default"],
                                                           obtainedAt: clock.now() - .minutes(10), expiresAt: clock.now() + .hours(1)))
        try wiring.store.replaceCredentials(stored.credentials, accountId: stored.account.id)
        let results = await Refresh(wiring: wiring, config: config).run([(try #require(try wiring.store.account(id: accounts[0].id)), true)],
                                                                        named: true, parallel: 1)
        #expect(results.first?.ok == true)
        #expect(results.first?.expiresAt == clock.now() + .seconds(30))
        #expect(try wiring.store.account(id: accounts[0].id)?.credentials.accessTokens.count == 2, "the other audience's token kept")
    }

    /// The deck's renewal ahead and its Enter below the binary: paced by the pacing the deck
    /// keeps, and Enter renews at once.
    @Test func reauthenticationRenewsAheadPacedAndEnterAtOnce() async throws {
        let adapter = Adapter(profile, clock: clock)
        let (wiring, config, accounts) = try setUp(adapter, expiresIn: .minutes(20))
        let pacing = RenewalPacing()
        let deck = Reauthentication(wiring: wiring, config: config, pacing: pacing)
        guard case .renewed = try await deck.renewAhead(accounts[0].id) else { Issue.record("not renewed"); return }
        guard case .deferred = try await deck.renewAhead(accounts[0].id) else { Issue.record("not paced"); return }
        struct NoPrompts: SignInPresenter { func present(_ prompt: SignInPrompt) async {} }
        guard case .renewed = try await deck.renewOrSignIn(accounts[0].id, interactive: true, presenter: NoPrompts()) else {
            Issue.record("Enter did not renew"); return
        }
        #expect(adapter.calls == 2)
        await #expect(throws: Refusal.self) { try await deck.renewAhead("work/gone") }
    }

    /// Issue 39: Enter on an account signed in to another tenant than its provider pins said
    /// "Renewed" while the row stayed stale. No renewal mends a tenant, and none is spent:
    /// Enter signs in (to the pinned tenant), a non-interactive caller is told to.
    @Test func enterOnAWrongTenantAccountSignsInInsteadOfRenewing() async throws {
        var pinned = profile
        pinned.kind = .azuread
        pinned.options["tenant"] = "contoso.example"
        let adapter = Adapter(pinned, clock: clock)
        let (wiring, _, accounts) = try setUp(adapter, expiresIn: .minutes(20))
        var stored = try #require(try wiring.store.account(id: accounts[0].id))
        stored.account.realm = "fabrikam.example"
        try wiring.store.delete(accountId: stored.account.id)
        try wiring.store.insert(stored)
        let config = DeckConfig(path: dir.file("config.toml"), fileExists: true, providers: [pinned])
        let deck = Reauthentication(wiring: wiring, config: config)
        struct NoPrompts: SignInPresenter { func present(_ prompt: SignInPrompt) async {} }
        // The test adapter's sign-in answers "unused": reaching it is the sign-in being offered.
        await #expect { _ = try await deck.renewOrSignIn(accounts[0].id, interactive: true, presenter: NoPrompts()) }
            throws: { ($0 as? AuthFailure)?.code == "unused" }
        await #expect { _ = try await deck.renewOrSignIn(accounts[0].id, interactive: false, presenter: NoPrompts()) }
            throws: { ($0 as? TokenAccess.NeedsSignIn)?.remedy.contains("renewing cannot mend that") == true }
        #expect(adapter.calls == 0, "no renewal, no refresh token spent")
        #expect(try wiring.store.account(id: accounts[0].id)?.credentials.refreshToken?.value.exposedValue == "rt-old-0")
        // Nor by the renewals nobody waits on (`watch`, the deck's renewal ahead), nor any other
        // need: the rule is the renewal service's own.
        let renewal = Renewal(wiring: wiring, config: config)
        for need: RenewalNeed in [.ahead(scopes: []), .expiringSoon, .usableNow(scopes: []), .force] {
            guard case .failed(let error, _) = await renewal.attempt(stored.account, need: need) else {
                Issue.record("\(need): renewed a wrong-tenant account"); continue
            }
            #expect((error as? TokenAccess.NeedsSignIn)?.remedy.contains("renewing cannot mend that") == true, "\(need): \(error)")
        }
        #expect(adapter.calls == 0, "no renewal ahead spent the refresh token either")
    }
}
