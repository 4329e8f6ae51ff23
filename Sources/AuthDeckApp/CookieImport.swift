import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckOAuth

/// Importing a site's cookies made elsewhere (curl's Netscape jar, Firefox's cookies.sqlite)
/// as a cookie account of a provider that signs in with cookies: a new account, or the same
/// one refreshed when the same user's cookies are imported again. Read before the store is
/// opened, so a wrong file changes nothing.
public struct CookieImport: Sendable {
    let file: String
    let profile: ProviderProfile
    /// The provider's site, whose cookies are kept.
    public let site: SiteHost
    /// The unexpired cookies of the site.
    public let cookies: [Cookie]
    /// How many cookies in the file belong to other sites (left out, never stored).
    public let otherSites: Int
    /// Names of the site's cookies left out because they had expired.
    public let expired: [String]
    /// The site's cookies a browser encrypted that could not be decrypted, and why.
    public let unreadable: [ChromiumCookieReader.Unreadable]
    /// What the account's event says they came from, and the event's kind: a file imported,
    /// or a sign-in in a browser window (`BrowserSignIn`).
    var cameFrom: String
    var eventKind = DeckEvent.Kind.imported

    /// Reads `file` and keeps the cookies of `profile`'s site unexpired at `now`. `scratch` is
    /// a private directory for copying a Firefox database Firefox may hold open.
    public init(file: String, profile: ProviderProfile, scratch: String, now: Instant) throws {
        let capabilities = ProviderCapabilities.of(profile)
        guard capabilities.producesCookies, capabilities.flows.contains(.import), let site = profile.site else {
            throw Refusal.usage("provider \"\(TerminalText.inert(profile.id))\" is not a sharepoint provider with options.site; cookies are imported into those")
        }
        guard let head = FileHandle(forReadingAtPath: file).map({ h in defer { try? h.close() }; return (try? h.read(upToCount: 16)) ?? Data() }) else {
            throw Refusal.failure("\(file): cannot read the file")
        }
        let all: [Cookie]
        if head.starts(with: Data("SQLite format 3".utf8)) {
            all = try FirefoxCookieReader.read(file, scratch: scratch, makeID: UUIDString.make)
            // The jar parser checks every line; the database's rows are checked here, where
            // those of the site are kept (rows of other sites are never stored or written).
            for (row, cookie) in all.enumerated() where site.sends(cookieDomain: cookie.domain) {
                if let problem = CookieSyntax.problem(cookie) {
                    throw Refusal.failure("\(file): row \(row + 1) of moz_cookies: \(problem); nothing was imported")
                }
            }
        } else {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw Refusal.failure("\(file): not a text cookie jar") }
            do { all = try NetscapeCookieJar.parse(text, makeID: UUIDString.make) } catch {
                throw Refusal.failure("\(file): \(error); nothing was imported")
            }
        }
        try self.init(file: file, profile: profile, site: site, read: all, now: now)
    }

    /// Reads the site's cookies from a browser profile (`--from`): Firefox's database as a
    /// file, a Chromium-family one decrypted with the browser's key. `keyring` looks up the
    /// browser's "Safe Storage" password (tests hand one in), asked only when a value needs it.
    public init(source: BrowserCookieSource, profile: ProviderProfile, scratch: String, now: Instant,
                keyring: (BrowserCookieSource.Browser) throws -> String = CookieImport.keyringPassword) throws {
        if source.browser == .firefox {
            try self.init(file: source.database, profile: profile, scratch: scratch, now: now)
            return
        }
        let capabilities = ProviderCapabilities.of(profile)
        guard capabilities.producesCookies, capabilities.flows.contains(.import), let site = profile.site else {
            throw Refusal.usage("provider \"\(TerminalText.inert(profile.id))\" is not a sharepoint provider with options.site; cookies are imported into those")
        }
        let outcome = try ChromiumCookieReader.read(source.database, site: site, browser: source.browser.displayName, scratch: scratch,
                                                    keyringPassword: { try keyring(source.browser) }, makeID: UUIDString.make)
        // A value that decrypted to something no cookie holds was decrypted with the wrong key.
        var unreadable = outcome.unreadable, cookies: [Cookie] = []
        for cookie in outcome.cookies {
            if CookieSyntax.problem(cookie) != nil {
                unreadable.append(.init(name: cookie.name, reason: "decrypts to a value no cookie holds (wrong key, or the value is damaged)"))
            } else {
                cookies.append(cookie)
            }
        }
        try self.init(file: source.database, profile: profile, site: site, read: cookies, now: now, unreadable: unreadable)
    }

    /// The browser's "Safe Storage" password from the Secret Service, or a sentence saying
    /// why there is none.
    public static func keyringPassword(_ browser: BrowserCookieSource.Browser) throws -> String {
        let keyring = SecretServiceKeyring()
        for application in browser.keyringApplications {
            if let password = try keyring.browserPassword(application: application) { return password }
        }
        throw Refusal.failure("the Secret Service has no \"\(browser.keyringLabel)\" item (is this the keyring \(browser.displayName) used?)")
    }

    /// Keeps the site's cookies a sign-in window read (every cookie the browser held), by
    /// the same rules as a file's: one way to decide what of a browser's cookies is stored.
    init(signedIn all: [Cookie], browser: String, profile: ProviderProfile, site: SiteHost, now: Instant) throws {
        try self.init(file: browser, profile: profile, site: site, read: all, now: now)
        cameFrom = "a sign-in in \(URL(fileURLWithPath: browser).lastPathComponent)"
        eventKind = .signInSucceeded
    }

    /// Keeps the site's unexpired cookies of `read`, counting what was left out and why.
    init(file: String, profile: ProviderProfile, site: SiteHost, read all: [Cookie], now: Instant,
         unreadable: [ChromiumCookieReader.Unreadable] = []) throws {
        let ours = all.filter { site.sends(cookieDomain: $0.domain) }
        let cookies = ours.filter { $0.isValid(at: now, skew: .seconds(0)) }
        let expired = ours.filter { !$0.isValid(at: now, skew: .seconds(0)) }.map(\.name)
        let others = all.count - ours.count
        guard !cookies.isEmpty else {
            var why = [Self.count(all.count + unreadable.count, "cookie") + " read"]
            if others > 0 { why.append(Self.count(others, "cookie") + " of other sites") }
            if !expired.isEmpty { why.append(Self.count(expired.count, "expired cookie") + " of the site (\(Self.names(expired)))") }
            for u in unreadable { why.append("\(TerminalText.inert(u.name)) \(u.reason)") }
            throw Refusal.failure("\(file): no unexpired cookies for \(site) (\(why.joined(separator: ", "))); nothing was imported")
        }
        (self.file, self.profile, self.site, self.cookies, self.otherSites, self.expired) = (file, profile, site, cookies, others, expired)
        self.unreadable = unreadable
        cameFrom = URL(fileURLWithPath: file).lastPathComponent
    }

    /// What was left out and why, as a sentence, or nil when nothing was.
    public var leftOut: String? {
        var parts: [String] = []
        if otherSites > 0 { parts.append(Self.count(otherSites, "cookie") + " of other sites") }
        if !expired.isEmpty { parts.append(Self.count(expired.count, "expired cookie") + " (\(Self.names(expired)))") }
        for u in unreadable { parts.append("\(TerminalText.inert(u.name)), which \(u.reason)") }
        return parts.isEmpty ? nil : "Left out " + parts.joined(separator: " and ") + "."
    }

    /// "1 cookie", "2 cookies".
    public static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// Cookie names for a message: inert, the first five, then how many more.
    static func names(_ names: [String]) -> String {
        let shown = names.prefix(5).map { TerminalText.inert($0) }.joined(separator: ", ")
        return names.count > 5 ? shown + " and \(names.count - 5) more" : shown
    }

    /// Saves the cookies as `username`'s account ("imported" when nil); returns the account.
    public func save(username: String?, in store: DeckStore, at now: Instant) throws -> Account {
        let user = username ?? "imported"
        let subject = "import:\(user.lowercased())@\(site.host)"
        let existing = try store.accounts(providerId: profile.id, subject: subject).first
        var account = existing?.account ?? Account(id: Account.makeID(provider: profile.id), providerId: profile.id, subject: subject,
                                                   username: user, displayName: site.host, realm: site.host, createdAt: now)
        account.lastSignInAt = now
        account.lastError = nil
        account.quarantinedAt = nil
        try store.saveSignIn(account, credentials: Credentials(cookies: cookies), event: DeckEvent(
            at: now, kind: eventKind, accountId: account.id, providerId: profile.id,
            detail: "\(Self.count(cookies.count, "cookie")) for \(site) from \(cameFrom)"))
        return account
    }
}
