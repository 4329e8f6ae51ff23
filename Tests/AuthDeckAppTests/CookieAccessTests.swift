import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// `CookieAccess` on a real store holding `DeckFixture`'s SharePoint account: fresh cookies are
/// handed out as stored; expired ones are renewed and committed first; a refused or failed
/// renewal loses nothing.
struct CookieAccessTests {
    let dir = TempDirectory()
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    static let site = ProviderProfile(id: "sp", kind: .sharepoint, options: ["site": "contoso.sharepoint.com", "azure_provider": "work"])

    func setUp(_ adapter: CookieSiteAdapter) throws -> (CookieAccess, DeckStore) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        for stored in DeckFixture(now: clock.now()).accounts { try store.insert(stored) }
        let config = try ConfigLoader.parse(DeckFixture.configTOML, path: dir.file("config.toml"))
        let wiring = ProviderWiring(store: store, clock: clock, environment: [:], adapters: { _, _, _ in adapter })
        return (CookieAccess(wiring: wiring, config: config), store)
    }

    @Test func freshCookiesAreHandedOutAsStored() async throws {
        let adapter = CookieSiteAdapter(Self.site) { throw AuthFailure(.transient, code: "unused", remedy: "no renewal expected") }
        let (access, store) = try setUp(adapter)
        let stored = try #require(try store.account(id: "sp/0000a012"))
        let cookies = try await access.cookies(stored)
        #expect(cookies.map(\.name) == ["FedAuth", "rtFa"] && adapter.renewals == 0)
        #expect(try store.account(id: "sp/0000a012")?.account.lastUsedAt == clock.now(), "last used is recorded")
    }

    @Test func expiredCookiesAreRenewedAndCommittedFirst() async throws {
        let adapter = CookieSiteAdapter(Self.site) { [clock] in
            Credentials(cookies: [Cookie(id: "ck-new", name: "FedAuth", value: Secret("fedauth-renewed-Zq8"), domain: "contoso.sharepoint.com",
                                         expiresAt: clock.now() + .hours(5))])
        }
        let (access, store) = try setUp(adapter)
        clock.advance(.hours(9))
        let cookies = try await access.cookies(try #require(try store.account(id: "sp/0000a012")))
        #expect(cookies.map(\.value.exposedValue) == ["fedauth-renewed-Zq8"] && adapter.renewals == 1)
        #expect(try store.account(id: "sp/0000a012")?.credentials.cookies.map(\.value.exposedValue) == ["fedauth-renewed-Zq8"])
    }

    /// A renewal that fails for the network keeps the cookies and says the account's id; one
    /// the provider already refused is not tried again and needs a person.
    @Test func aFailedOrRefusedRenewalLosesNothing() async throws {
        let adapter = CookieSiteAdapter(Self.site) { throw AuthFailure(.transient, code: "http 503", remedy: "the site is unavailable") }
        let (access, store) = try setUp(adapter)
        clock.advance(.hours(9))
        let before = try #require(try store.account(id: "sp/0000a012"))
        let down = await #expect(throws: AuthFailure.self) { _ = try await access.cookies(before) }
        #expect(down?.errorClass == .transient && down?.remedy.contains("sp/0000a012") == true, "\(String(describing: down))")
        let after = try #require(try store.account(id: "sp/0000a012"))
        #expect(after.credentials == before.credentials && after.account.lastError?.errorClass != .needsInteraction)
        var refused = after
        refused.account.lastError = AccountError(errorClass: .needsInteraction, code: "AADSTS70008", remedy: "the grant expired", at: clock.now())
        let needs = await #expect(throws: TokenAccess.NeedsSignIn.self) { _ = try await access.cookies(refused) }
        #expect(needs?.remedy.contains("the provider refused their last renewal (the grant expired)") == true && adapter.renewals == 1)
        #expect(try store.account(id: "sp/0000a012")?.credentials == before.credentials)
    }
}
