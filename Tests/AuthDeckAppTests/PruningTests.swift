import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// Pruning over a real store with the fixture's config: the candidates `authdeck prune` and
/// the deck's `p` both act on, the quarantine's retention, and the undo.
@Suite struct PruningTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()

    func setUp() throws -> (DeckStore, DeckConfig) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        for stored in DeckFixture(now: clock.now()).accounts { try store.insert(stored) }
        try DeckFixture.configTOML.write(toFile: dir.file("config.toml"), atomically: true, encoding: .utf8)
        return (store, try ConfigLoader.load(path: dir.file("config.toml"), required: true))
    }

    @Test func candidatesNarrowByReasonProviderAndIdAndTheUndoBringsThemBack() throws {
        let (store, config) = try setUp()
        let pruning = Pruning(store: store, clock: clock)
        let all = try pruning.candidates(config)
        #expect(!all.isEmpty, "the fixture has stale accounts")
        let first = try #require(all.first)
        #expect(try pruning.candidates(config, reasons: [first.reason.key]).allSatisfy { $0.reason.key == first.reason.key })
        #expect(try pruning.candidates(config, provider: "nope").isEmpty)
        #expect(try pruning.candidates(config, ids: [first.account.id]).map(\.account.id) == [first.account.id])
        #expect(try pruning.quarantine([first], config: config).purged.isEmpty, "nothing has been there 30 days")
        #expect(try pruning.quarantined().map(\.id) == [first.account.id])
        #expect(try !pruning.candidates(config).contains { $0.account.id == first.account.id }, "a quarantined account is not offered again")
        #expect(try pruning.restore(ids: nil).map(\.id) == [first.account.id])
        #expect(try pruning.quarantined().isEmpty)
    }

    @Test func theQuarantineIsPurgedAfterItsRetention() throws {
        let (store, config) = try setUp()
        let pruning = Pruning(store: store, clock: clock)
        let first = try #require(try pruning.candidates(config).first)
        _ = try pruning.quarantine([first], config: config)
        clock.advance(.seconds(Pruning.retentionDays * 86_400 + 1))
        #expect(try pruning.quarantine([], config: config).purged.map(\.id) == [first.account.id], "purged at the next prune after 30 days")
        #expect(try store.account(id: first.account.id) == nil)
    }

    /// Issue 26: an account signed in again between the preview and the `y` was quarantined
    /// on the preview's word. The verdict is taken again inside the quarantine's transaction.
    @Test func anAccountSignedInAgainSinceThePreviewIsKeptAndSaidSo() throws {
        let (store, config) = try setUp()
        let pruning = Pruning(store: store, clock: clock)
        let preview = try pruning.candidates(config)
        let renewedOne = try #require(preview.first { ["never-completed", "rejected", "unused"].contains($0.reason.key) },
                                      "the fixture has an account a sign-in makes fresh: \(preview.map(\.reason.key))")
        // Another process signs it in again meanwhile.
        clock.advance(.seconds(5))
        var account = renewedOne.account
        account.lastSignInAt = clock.now()
        account.lastUsedAt = clock.now()
        account.lastError = nil
        let fresh = Credentials(accessTokens: [AccessToken(id: "fresh", value: Secret("at-fresh"), scopes: ["openid"],
                                                           obtainedAt: clock.now(), expiresAt: clock.now() + .hours(1))],
                                refreshToken: RefreshToken(id: "rt-fresh", value: Secret("rt-fresh"), generation: 1, obtainedAt: clock.now()))
        try store.saveSignIn(account, credentials: fresh, event: DeckEvent(at: clock.now(), kind: .signInSucceeded, accountId: account.id,
                                                                         providerId: account.providerId, detail: "test"))
        let outcome = try pruning.quarantine(preview, config: config)
        #expect(outcome.kept == ["\(renewedOne.account.id) was signed in again since the preview; kept"], "\(outcome.kept)")
        #expect(Set(outcome.quarantined.map(\.account.id)) == Set(preview.map(\.account.id)).subtracting([renewedOne.account.id]))
        #expect(try store.account(id: renewedOne.account.id)?.account.quarantinedAt == nil, "the account signed in again stays in the deck")
        #expect(try pruning.quarantined().count == preview.count - 1)
    }

    /// An account pruned by another process since the preview is left as it is, not an error.
    @Test func anAccountGoneSinceThePreviewIsLeftAlone() throws {
        let (store, config) = try setUp()
        let pruning = Pruning(store: store, clock: clock)
        let preview = try pruning.candidates(config)
        let first = try #require(preview.first)
        try store.delete(accountId: first.account.id)
        let outcome = try pruning.quarantine(preview, config: config)
        #expect(outcome.kept == ["\(first.account.id) was removed or pruned since the preview; left as it is"])
        #expect(outcome.quarantined.count == preview.count - 1)
    }

    /// Issue 42: the defaults a prune clears are the use case's rule, for `authdeck prune` (with
    /// and without a preview) and the deck's `p` alike: a pruned default is cleared and named,
    /// a default that was kept (or of another provider) stays.
    @Test func aPrunedDefaultIsClearedByTheUseCaseAndAKeptOneStays() throws {
        let (store, config) = try setUp()
        let pruning = Pruning(store: store, clock: clock)
        try store.setDefaultAccount("work/0000a013", provider: "work")  // stale: unused
        try store.setDefaultAccount("fb/0000a004", provider: "fb")      // not stale
        let previewed = try pruning.candidates(config, ids: ["work/0000a013"])
        let outcome = try pruning.quarantine(previewed, config: config)
        #expect(outcome.clearedDefaults.map { "\($0.provider)=\($0.account)" } == ["work=work/0000a013"])
        #expect(try store.defaultAccount(provider: "work") == nil)
        #expect(try store.defaultAccount(provider: "fb") == "fb/0000a004")
        // `prune --yes`: no preview, the same rule.
        try store.setDefaultAccount("prod/0000a008", provider: "prod")  // stale: wrong tenant
        let unpreviewed = try pruning.quarantine(nil, config: config, provider: "prod")
        #expect(unpreviewed.clearedDefaults.map(\.account) == ["prod/0000a008"])
        #expect(try store.defaultAccount(provider: "prod") == nil)
        #expect(try store.defaultAccount(provider: "fb") == "fb/0000a004")
    }
}
