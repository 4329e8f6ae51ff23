import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// `CookieImport` of a real curl jar into a real store: the site's unexpired cookies are kept,
/// what was left out is said, a second import of the same user refreshes the same account, and
/// a file or provider that cannot give cookies stores nothing.
struct CookieImportTests {
    let dir = TempDirectory()
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    static let site = ProviderProfile(id: "sp", kind: .sharepoint, options: ["site": "contoso.sharepoint.com"])

    /// A Netscape jar (curl -c) with `lines` (domain, name, value, seconds from now), its path.
    func jar(_ name: String, _ lines: [(String, String, String, Int64)]) throws -> String {
        let text = "# Netscape HTTP Cookie File\n" + lines.map { domain, cookie, value, expiresIn in
            "\(domain)\t\(domain.hasPrefix(".") ? "TRUE" : "FALSE")\t/\tTRUE\t\(now.secondsSinceEpoch + expiresIn)\t\(cookie)\t\(value)\n"
        }.joined()
        let path = dir.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func store() throws -> DeckStore {
        try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: MutableClock(now))
    }

    @Test func theSitesUnexpiredCookiesBecomeAnAccount() throws {
        let path = try jar("jar.txt", [("contoso.sharepoint.com", "FedAuth", "fedauth-Zq8", 3600), (".sharepoint.com", "rtFa", "rtfa-Zq8", 7200),
                                       ("contoso.sharepoint.com", "Old", "old", -60), ("example.org", "other", "x", 3600)])
        let imported = try CookieImport(file: path, profile: Self.site, scratch: dir.path, now: now)
        #expect(imported.cookies.map(\.name) == ["FedAuth", "rtFa"] && imported.otherSites == 1 && imported.expired == ["Old"])
        #expect(imported.leftOut == "Left out 1 cookie of other sites and 1 expired cookie (Old).")
        let store = try store()
        let account = try imported.save(username: "Taro@contoso.com", in: store, at: now)
        let stored = try #require(try store.account(id: account.id))
        #expect(stored.credentials.cookies.map(\.value.exposedValue) == ["fedauth-Zq8", "rtfa-Zq8"] && stored.account.realm == "contoso.sharepoint.com")
        #expect(try store.events(since: nil, accountId: account.id, limit: nil).map(\.detail) == ["2 cookies for contoso.sharepoint.com from jar.txt"])
        // The same user's cookies again: the same account, its cookies replaced.
        let again = try CookieImport(file: try jar("jar2.txt", [("contoso.sharepoint.com", "FedAuth", "fedauth-2-Zq8", 3600)]),
                                     profile: Self.site, scratch: dir.path, now: now)
        #expect(try again.save(username: "taro@contoso.com", in: store, at: now).id == account.id)
        #expect(try store.account(id: account.id)?.credentials.cookies.map(\.value.exposedValue) == ["fedauth-2-Zq8"])
        #expect(try store.accounts(providerId: "sp", subject: nil).count == 1)
    }

    /// Nothing usable for the site, a provider that takes no cookies, a file that is no jar:
    /// each refused by name (the file is read before any store is opened).
    @Test func whatGivesNoCookiesIsRefusedByName() throws {
        let stale = try jar("stale.txt", [("contoso.sharepoint.com", "FedAuth", "f", -1), ("example.org", "other", "x", 3600)])
        let none = #expect(throws: Refusal.self) { try CookieImport(file: stale, profile: Self.site, scratch: dir.path, now: now) }
        #expect(none?.sentence == "\(stale): no unexpired cookies for contoso.sharepoint.com (2 cookies read, 1 cookie of other sites, 1 expired cookie of the site (FedAuth)); nothing was imported",
                "\(String(describing: none))")
        let oidc = #expect(throws: Refusal.self) {
            try CookieImport(file: stale, profile: ProviderProfile(id: "gl", kind: .oidc, clientId: "x"), scratch: dir.path, now: now)
        }
        #expect(oidc?.sentence.hasPrefix("provider \"gl\" is not a sharepoint provider with options.site") == true)
        let garbage = dir.file("garbage.txt")
        try "contoso.sharepoint.com\tnot enough fields\n".write(toFile: garbage, atomically: true, encoding: .utf8)
        let bad = #expect(throws: Refusal.self) { try CookieImport(file: garbage, profile: Self.site, scratch: dir.path, now: now) }
        #expect(bad?.sentence.hasPrefix("\(garbage): ") == true && bad?.sentence.hasSuffix("; nothing was imported") == true, "\(String(describing: bad))")
    }
}
