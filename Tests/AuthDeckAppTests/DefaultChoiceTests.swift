import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// A provider's default account set and cleared by `DefaultChoice` on a real store with the
/// fixture's accounts: what `authdeck use`, the deck's `*`, sign-out and prune all go through.
@Suite struct DefaultChoiceTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()

    func setUp() throws -> (DeckStore, DeckConfig) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        for stored in DeckFixture(now: clock.now()).accounts { try store.insert(stored) }
        return (store, try ConfigLoader.parse(DeckFixture.configTOML, path: dir.file("config.toml")))
    }

    @Test func anAccountBecomesItsProvidersDefaultAndIsToldSoASecondTime() throws {
        let (store, _) = try setUp()
        let choice = DefaultChoice(store: store)
        let made = try choice.make("work/0000a002")
        #expect(made.accountId == "work/0000a002" && made.providerId == "work" && !made.already)
        #expect(made.said == "is now the default of work: `work` stands for it.")
        #expect(try store.defaultAccount(provider: "work") == "work/0000a002")
        #expect(try choice.make("work/0000a002").said == "is already the default of work: `work` stands for it.")
        // Another of the provider's accounts takes its place; other providers keep theirs.
        _ = try choice.make("fb/0000a004")
        #expect(try choice.make("work/0000a003").already == false)
        #expect(try store.defaultAccounts(providers: ["work", "fb"]) == ["work": "work/0000a003", "fb": "fb/0000a004"])
    }

    /// Gone and pruned accounts are refused in one wording each; nothing is written.
    @Test func aGoneOrPrunedAccountIsRefused() throws {
        let (store, _) = try setUp()
        let choice = DefaultChoice(store: store)
        let gone = #expect(throws: DefaultChoice.Refused.self) { try choice.make("work/0000ffff") }
        #expect(gone?.sentence == "work/0000ffff: the account is gone from the store (signed out since); `authdeck accounts` lists what is left")
        let stale = try #require(try store.accountSummaries(includeQuarantined: false).first { $0.account.id == "work/0000a013" })
        _ = try store.quarantine(nil, at: clock.now()) { _ in
            [PruneCandidate(account: stale.account, reason: .unused(days: 100, limit: .days(90)))]
        }
        let refused = #expect(throws: DefaultChoice.Refused.self) { try choice.make("work/0000a013") }
        #expect(refused?.sentence == "work/0000a013: the account is pruned (in the quarantine); `authdeck prune --undo` brings it back first")
        #expect(refused?.exitStatus == ExitStatus.usage)
        #expect(try store.defaultAccount(provider: "work") == nil)
    }

    /// A row whose provider was rewritten without the key (`sqlite3` on the file) cannot make
    /// itself another provider's default: the store's tamper error, and no default.
    @Test func aRowEditedWithoutTheKeyIsNotMadeADefault() throws {
        let (store, _) = try setUp()
        let edit = try BinaryRunner(executable: "/usr/bin/sqlite3")
            .run([dir.file("s.db"), "UPDATE accounts SET provider_id = 'prod' WHERE id = 'work/0000a002'"])
        try #require(edit.status == 0, "\(edit.stderr)")
        #expect(throws: StoreError.accountTampered(accountId: "work/0000a002")) { try DefaultChoice(store: store).make("work/0000a002") }
        #expect(try store.defaultAccounts(providers: ["work", "prod"]).isEmpty)
    }

    /// `clear`: the account it named, nil with nothing to clear; a mistyped provider is refused
    /// by name, and a provider gone from the config is cleared without the config being read.
    @Test func clearingNamesWhatWasClearedAndRefusesAnUnknownProvider() throws {
        let (store, config) = try setUp()
        let choice = DefaultChoice(store: store)
        _ = try choice.make("work/0000a002")
        #expect(try choice.clear(provider: "work") { config } == "work/0000a002")
        #expect(try choice.clear(provider: "work") { config } == nil)
        let refused = #expect(throws: Refusal.self) { try choice.clear(provider: "nosuch") { config } }
        #expect(refused?.message == "no provider \"nosuch\" in \(config.path) (configured: work, prod, sp, fb, gl)")
        #expect(refused?.exitStatus == ExitStatus.usage)
        try store.setDefaultAccount("legacy/0000a014", provider: "legacy")
        struct Unread: Error {}
        #expect(try choice.clear(provider: "legacy") { throw Unread() } == "legacy/0000a014")
    }

    /// Sign-out and prune clear only the defaults naming the accounts they remove.
    @Test func theDefaultsNamingRemovedAccountsAreCleared() throws {
        let (store, _) = try setUp()
        let choice = DefaultChoice(store: store)
        for id in ["work/0000a002", "fb/0000a004", "gl/0000a006"] { _ = try choice.make(id) }
        let removed = try store.accountRows(includeQuarantined: false).filter { ["work/0000a002", "gl/0000a007"].contains($0.id) }
        let cleared = try choice.clear(naming: removed)
        #expect(cleared.map(\.provider) == ["work"] && cleared.map(\.account) == ["work/0000a002"])
        #expect(try store.defaultAccounts(providers: ["work", "fb", "gl"]) == ["fb": "fb/0000a004", "gl": "gl/0000a006"])
    }
}
