import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// `MSALImport` on a real cache file and a real store: only refresh tokens issued to the
/// provider's client come in, the others are said with why, and a second import updates the
/// same account rather than adding one.
struct MSALImportTests {
    let dir = TempDirectory()
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let profile = ProviderProfile(id: "az", kind: .azuread, clientId: MSALCacheSample.azureCLI)

    @Test func onlyTheProvidersClientsRefreshTokensAreImported() throws {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let path = try MSALCacheSample.write(in: dir)
        let result = try MSALImport(store: store, clock: clock).run(path: path, shownAs: "~/.azure/msal_token_cache.json", profile: profile,
                                                                   clientId: MSALCacheSample.azureCLI)
        #expect(result.skipped == ["bob@contoso.com (no refresh token for client \(MSALCacheSample.azureCLI))",
                                   "carol@contoso.com (no refresh token for client \(MSALCacheSample.azureCLI))"], "\(result.skipped)")
        let imported = try store.accounts(providerId: "az", subject: nil)
        #expect(imported.count == 1 && result.imported == ["alice@contoso.com (\(imported[0].account.id))"])
        let alice = imported[0]
        #expect(alice.account.realm == MSALCacheSample.tenantOne && alice.account.subject == "alice-oid.\(MSALCacheSample.tenantOne)")
        #expect(alice.credentials.refreshToken?.value.exposedValue == "msal-rt-alice-Zq8" && alice.credentials.refreshToken?.generation == 1)
        #expect(try store.events(since: nil, accountId: alice.account.id, limit: nil).map(\.detail) == ["from the MSAL cache ~/.azure/msal_token_cache.json"])
        // Imported again: the same account, its refresh token's generation counted on.
        clock.advance(.minutes(5))
        let again = try MSALImport(store: store, clock: clock).run(path: path, shownAs: "cache", profile: profile, clientId: MSALCacheSample.azureCLI)
        #expect(again.imported == result.imported)
        #expect(try store.account(id: alice.account.id)?.credentials.refreshToken?.generation == 2)
        #expect(try store.accounts(providerId: "az", subject: nil).count == 1)
    }

    /// A provider that cannot take MSAL accounts, and a cache that is not one, are refused by name.
    @Test func whatCannotBeImportedIsRefusedByName() throws {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let notAzure = #expect(throws: Refusal.self) {
            try MSALImport.clientId(of: ProviderProfile(id: "gl", kind: .oidc, clientId: "x"), providerId: "gl", configPath: "/c.toml")
        }
        #expect(notAzure?.sentence == "\"gl\" is not an azuread provider with a client_id in /c.toml")
        #expect(try MSALImport.clientId(of: profile, providerId: "az", configPath: "/c.toml") == MSALCacheSample.azureCLI)
        let bad = dir.file("bad.json")
        _ = FileManager.default.createFile(atPath: bad, contents: Data("[1]".utf8), attributes: [.posixPermissions: 0o600])
        let refused = #expect(throws: Refusal.self) {
            try MSALImport(store: store, clock: clock).run(path: bad, shownAs: "bad", profile: profile, clientId: MSALCacheSample.azureCLI)
        }
        #expect(refused?.sentence.contains("not a JSON object") == true, "\(String(describing: refused))")
        #expect(try store.accounts(providerId: "az", subject: nil).isEmpty)
    }
}
