import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckOAuth

/// `authdeck import`: brings credentials made elsewhere into the deck.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import credentials made elsewhere (cookie jars, client certificates, MSAL caches).",
        subcommands: [ImportCookiesCommand.self, ImportCertCommand.self, ImportMSALCommand.self])
}

/// `authdeck import cookies FILE --provider ID`: a Netscape cookie jar (curl's) or a
/// Firefox `cookies.sqlite` becomes (or refreshes) a cookie account of a SharePoint provider.
struct ImportCookiesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cookies", abstract: "Import the site's cookies from a Netscape jar or a Firefox cookies.sqlite.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A Netscape cookies.txt or a Firefox cookies.sqlite.") var file: String
    @Option(name: .long, help: ArgumentHelp("The sharepoint provider the cookies belong to.", valueName: "id"), completion: Completions.providers) var provider: String
    @Option(name: .long, help: "The user the cookies sign in (shown in listings).") var username: String?

    func run() async throws {
        let context = DeckContext(global)
        let config = try context.loadConfig()
        guard let profile = config.provider(provider) else { throw CLIError.unknownProvider(provider, in: config) }
        guard profile.kind == .sharepoint, let site = profile.options["site"] else {
            throw CLIError.usage("provider \"\(TerminalText.inert(provider))\" is not a sharepoint provider with options.site; cookies are imported into those")
        }
        guard let head = FileHandle(forReadingAtPath: file).map({ h in defer { try? h.close() }; return (try? h.read(upToCount: 16)) ?? Data() }) else {
            throw CLIError.failure("\(file): cannot read the file")
        }
        let all: [Cookie]
        if head.starts(with: Data("SQLite format 3".utf8)) {
            all = try FirefoxCookieReader.read(file, scratch: RuntimeDirectory.path(context.environment), makeID: UUIDString.make)
        } else {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw CLIError.failure("\(file): not a text cookie jar") }
            do { all = try NetscapeCookieJar.parse(text, makeID: UUIDString.make) } catch { throw CLIError.failure("\(file): \(error)") }
        }
        let now = context.clock.now()
        let cookies = all.filter { Self.domain($0.domain, matches: site) && $0.isValid(at: now, skew: .seconds(0)) }
        guard !cookies.isEmpty else {
            throw CLIError.failure("\(file): no unexpired cookies for \(site) (\(all.count) cookies read)")
        }
        let store = try context.openStore()
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
        Output.raw("Imported \(cookies.count) cookies for \(site) as \(account.id) (\(cookies.map(\.name).joined(separator: ", "))).\n")
    }

    /// Cookie-domain matching (RFC 6265 §5.1.3): exact, or a leading-dot domain the host ends with.
    static func domain(_ domain: String, matches host: String) -> Bool {
        let d = domain.lowercased(), h = host.lowercased()
        if d == h || (d.hasPrefix(".") && (h == String(d.dropFirst()) || h.hasSuffix(d))) { return true }
        return false
    }
}
