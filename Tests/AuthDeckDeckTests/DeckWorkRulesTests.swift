import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckUI
import AuthDeckTestSupport
import AuthDeckConfig
import AuthDeckApp
@testable import AuthDeckDeck

/// The deck's sign-out and prune below the binary (issue 42): `DeckWork` on a real store with an
/// adapter of a dynamically registered provider, so the deck is held to the rules `authdeck
/// logout` and `authdeck prune` follow — they live in `SignOut` and `Pruning`, which both call.
struct DeckWorkRulesTests {
    let dir = TempDirectory("authdeck-deckwork")
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))

    func setUp(_ adapter: RegisteredClientAdapter) throws -> (DeckWork, DeckStore) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        for stored in DeckFixture(now: clock.now()).accounts { try store.insert(stored) }
        try DeckFixture.configTOML.write(toFile: dir.file("config.toml"), atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: dir.file("config.toml"), required: true)
        let wiring = ProviderWiring(store: store, clock: clock, environment: [:], adapters: { _, _, _ in adapter })
        return (DeckWork(wiring: wiring, config: config, onSignInPrompt: nil), store)
    }

    /// `d` then `c` on the provider's accounts: the default goes with its account, the client
    /// registration stays while another account uses it and goes with the last one.
    @Test func theDecksSignOutClearsTheDefaultAndTheLastAccountsRegistration() async throws {
        let adapter = RegisteredClientAdapter(ProviderProfile(id: "gl", kind: .oidc))
        let (work, store) = try setUp(adapter)
        try store.setDefaultAccount("gl/0000a006", provider: "gl")
        await work.logout("gl/0000a006", clearRegistration: true)
        #expect(work.inbox.drain() == [.loggedOut(id: "gl/0000a006", failure: nil)])
        #expect(try store.defaultAccount(provider: "gl") == nil, "`gl` names no signed-out account")
        #expect(adapter.unregistered == 0, "gl/0000a007 still renews through the client")
        await work.logout("gl/0000a007", clearRegistration: true)
        #expect(work.inbox.drain() == [.loggedOut(id: "gl/0000a007", failure: nil)])
        #expect(try adapter.unregistered == 1 && adapter.registrationSummary() == nil)
        #expect(try store.accountRows(includeQuarantined: true).filter { $0.providerId == "gl" }.isEmpty)
    }

    /// A revocation that fails deletes nothing and the deck says what the CLI says (its reason,
    /// after the account's name), not a wording of its own.
    @Test func aFailedRevocationIsWordedAsTheCLIWordsIt() async throws {
        let adapter = RegisteredClientAdapter(ProviderProfile(id: "gl", kind: .oidc), revocationFails: true)
        let (work, store) = try setUp(adapter)
        let before = try store.account(id: "gl/0000a006")
        await work.logout("gl/0000a006", clearRegistration: false)
        let failure = "could not revoke at the server: the issuer is unavailable; try again later [http 503]. Nothing was deleted; "
            + "fix that and retry, or sign out locally only (`authdeck logout gl/0000a006 --local`)"
        #expect(work.inbox.drain() == [.loggedOut(id: "gl/0000a006", failure: failure)])
        #expect(try store.account(id: "gl/0000a006") == before)
    }

    /// The deck's `p` clears a pruned default through `Pruning`, as `authdeck prune` does.
    @Test func theDecksPruneClearsAPrunedDefault() throws {
        let (work, store) = try setUp(RegisteredClientAdapter(ProviderProfile(id: "gl", kind: .oidc)))
        try store.setDefaultAccount("work/0000a013", provider: "work")
        try store.setDefaultAccount("fb/0000a004", provider: "fb")
        work.prune(["work/0000a013"])
        #expect(work.inbox.drain() == [.pruned(count: 1)])
        #expect(try store.defaultAccount(provider: "work") == nil)
        #expect(try store.defaultAccount(provider: "fb") == "fb/0000a004")
    }

    /// `d` on a row edited without the key says what the store says (it names `logout --local`),
    /// not "the account is gone", and deletes nothing.
    @Test func theDecksSignOutOfAnEditedRowSaysSo() async throws {
        let (work, store) = try setUp(RegisteredClientAdapter(ProviderProfile(id: "gl", kind: .oidc)))
        let edit = try BinaryRunner(executable: "/usr/bin/sqlite3")
            .run([dir.file("s.db"), "UPDATE accounts SET username = 'admin@contoso.com' WHERE id = 'work/0000a002'"])
        try #require(edit.status == 0, "\(edit.stderr)")
        await work.logout("work/0000a002", clearRegistration: false)
        #expect(work.inbox.drain() == [.loggedOut(id: "work/0000a002", failure: "\(StoreError.accountTampered(accountId: "work/0000a002"))")])
        #expect(try store.accountRows(includeQuarantined: true).contains { $0.id == "work/0000a002" })
    }
}
