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
        #expect(try pruning.quarantine([first]).isEmpty, "nothing has been there 30 days")
        #expect(try pruning.quarantined().map(\.id) == [first.account.id])
        #expect(try !pruning.candidates(config).contains { $0.account.id == first.account.id }, "a quarantined account is not offered again")
        #expect(try pruning.restore(ids: nil).map(\.id) == [first.account.id])
        #expect(try pruning.quarantined().isEmpty)
    }

    @Test func theQuarantineIsPurgedAfterItsRetention() throws {
        let (store, config) = try setUp()
        let pruning = Pruning(store: store, clock: clock)
        let first = try #require(try pruning.candidates(config).first)
        _ = try pruning.quarantine([first])
        clock.advance(.seconds(Pruning.retentionDays * 86_400 + 1))
        #expect(try pruning.quarantine([]).map(\.id) == [first.account.id], "purged at the next prune after 30 days")
        #expect(try store.account(id: first.account.id) == nil)
    }
}
