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
    public let site: String
    /// The unexpired cookies of the site.
    public let cookies: [Cookie]

    /// Reads `file` and keeps the cookies of `profile`'s site unexpired at `now`. `scratch` is
    /// a private directory for copying a Firefox database Firefox may hold open.
    public init(file: String, profile: ProviderProfile, scratch: String, now: Instant) throws {
        let capabilities = ProviderCapabilities.of(profile)
        guard capabilities.producesCookies, capabilities.flows.contains(.import), let site = profile.options["site"] else {
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
            for (row, cookie) in all.enumerated() where Self.domain(cookie.domain, matches: site) {
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
        let cookies = all.filter { Self.domain($0.domain, matches: site) && $0.isValid(at: now, skew: .seconds(0)) }
        guard !cookies.isEmpty else {
            throw Refusal.failure("\(file): no unexpired cookies for \(site) (\(all.count) cookies read)")
        }
        (self.file, self.profile, self.site, self.cookies) = (file, profile, site, cookies)
    }

    /// Saves the cookies as `username`'s account ("imported" when nil); returns the account.
    public func save(username: String?, in store: DeckStore, at now: Instant) throws -> Account {
        let user = username ?? "imported"
        let subject = "import:\(user.lowercased())@\(site)"
        let existing = try store.accounts(providerId: profile.id, subject: subject).first
        var account = existing?.account ?? Account(id: Account.makeID(provider: profile.id), providerId: profile.id, subject: subject,
                                                   username: user, displayName: site, realm: site, createdAt: now)
        account.lastSignInAt = now
        account.lastError = nil
        account.quarantinedAt = nil
        try store.saveSignIn(account, credentials: Credentials(cookies: cookies), event: DeckEvent(
            at: now, kind: .imported, accountId: account.id, providerId: profile.id,
            detail: "\(cookies.count) cookies for \(site) from \(URL(fileURLWithPath: file).lastPathComponent)"))
        return account
    }

    /// Cookie-domain matching (RFC 6265 §5.1.3): exact, or a leading-dot domain the host ends with.
    static func domain(_ domain: String, matches host: String) -> Bool {
        let d = domain.lowercased(), h = host.lowercased()
        return d == h || (d.hasPrefix(".") && (h == String(d.dropFirst()) || h.hasSuffix(d)))
    }
}
