import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// What a confirmed prune's `PruneOutcome` says when the store changed between the preview and
/// the confirmation: an account no longer stale, or stale for another reason, is kept and the
/// sentence says which — `authdeck prune` and the deck's `p` print these words as they are.
struct PruneOutcomeTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()

    func store() throws -> DeckStore {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        for stored in DeckFixture(now: clock.now()).accounts { try store.insert(stored) }
        return store
    }

    func config(_ text: String) throws -> DeckConfig {
        try ConfigLoader.parse(text, path: dir.file("config.toml"))
    }

    /// Used since the preview: no longer stale, kept, nothing moved.
    @Test func anAccountUsedSinceThePreviewIsNoLongerStale() throws {
        let store = try store()
        let config = try config(DeckFixture.configTOML)
        let pruning = Pruning(store: store, clock: clock)
        let previewed = try #require(try pruning.candidates(config, ids: ["work/0000a013"]).first)
        #expect(previewed.reason.key == "unused")
        try store.touch(accountId: "work/0000a013", at: clock.now())
        let outcome = try pruning.quarantine([previewed], config: config)
        #expect(outcome.kept == ["work/0000a013 is no longer stale (\(previewed.reason.sentence)) since the preview; kept"], "\(outcome.kept)")
        #expect(outcome.quarantined.isEmpty && outcome.purged.isEmpty && outcome.clearedDefaults.isEmpty)
        #expect(try store.account(id: "work/0000a013")?.account.quarantinedAt == nil)
    }

    /// Its provider taken out of the config since the preview: stale for another reason than
    /// the one the person confirmed, so kept, and both reasons named.
    @Test func anAccountStaleForAnotherReasonIsKeptAndBothReasonsSaid() throws {
        let store = try store()
        let pruning = Pruning(store: store, clock: clock)
        let previewed = try #require(try pruning.candidates(try config(DeckFixture.configTOML), ids: ["gl/0000a007"]).first)
        let withoutGL = DeckFixture.configTOML.components(separatedBy: "\n[[provider]]\nid = \"gl\"").first ?? ""
        #expect(withoutGL.count < DeckFixture.configTOML.count, "the fixture's gl provider was cut out")
        let changed = try config(withoutGL)
        let now = try #require(try pruning.candidates(changed, ids: ["gl/0000a007"]).first)
        #expect(now.reason.key != previewed.reason.key, "\(now.reason.key)")
        let outcome = try pruning.quarantine([previewed], config: changed)
        #expect(outcome.kept == ["gl/0000a007 is now \(now.reason.sentence), not \(previewed.reason.sentence) as previewed; kept"], "\(outcome.kept)")
        #expect(outcome.quarantined.isEmpty)
        #expect(try pruning.quarantined().isEmpty)
    }
}
