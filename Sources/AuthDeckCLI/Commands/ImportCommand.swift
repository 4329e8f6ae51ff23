import ArgumentParser
import AuthDeckCore
import AuthDeckApp
import AuthDeckPlatform

/// `authdeck import`: brings credentials made elsewhere into the deck.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import credentials made elsewhere (cookie jars, client certificates, MSAL caches).",
        subcommands: [ImportCookiesCommand.self, ImportCertCommand.self, ImportMSALCommand.self])
}

/// `authdeck import cookies FILE --provider ID` or `--from BROWSER [--profile NAME]`: a
/// Netscape cookie jar (curl's), a Firefox `cookies.sqlite` or a Chromium-family profile's
/// `Cookies` becomes (or refreshes) a cookie account of a SharePoint provider.
struct ImportCookiesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cookies", abstract: "Import the site's cookies from a browser profile, a Netscape jar or a Firefox cookies.sqlite.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A Netscape cookies.txt, a Firefox cookies.sqlite, or (with --from) a browser's cookie database.") var file: String?
    @Option(name: .long, help: ArgumentHelp("The sharepoint provider the cookies belong to.", valueName: "id"), completion: Completions.providers) var provider: String
    @Option(name: .long, help: "The user the cookies sign in (shown in listings).") var username: String?
    @Option(name: .long, help: ArgumentHelp("Read the cookies of a browser's profile: chrome, chromium, edge or firefox.", valueName: "browser"),
            completion: .list(BrowserCookieSource.Browser.allCases.map(\.rawValue))) var from: String?
    @Option(name: .long, help: ArgumentHelp("With --from: the profile's name (Default, \"Profile 1\", a Firefox profile's name) or directory.", valueName: "name"))
    var profile: String?
    @Flag(name: .long, help: "Print JSON: the account, the cookies imported (names, no values) and those left out with the reason.")
    var json = false

    /// The `--json` answer. Values are never printed (`authdeck cookies --json` does that);
    /// each cookie left out says why: another site's, expired, or not decryptable.
    struct ImportJSON: Encodable {
        struct LeftOut: Encodable {
            /// nil for other sites' cookies, which are counted, never named.
            var name: String?
            var count: Int
            var reason: String
        }
        var account: String
        var provider: String
        var site: String
        var imported: [String]
        var left_out: [LeftOut]
    }

    func validate() throws {
        if let from, BrowserCookieSource.Browser(rawValue: from) == nil {
            throw ValidationError("--from must be one of \(BrowserCookieSource.Browser.allCases.map(\.rawValue).joined(separator: ", ")) (found \"\(from)\")")
        }
        if from == nil && file == nil { throw ValidationError("name a cookie file, or a browser with --from chrome|chromium|edge|firefox") }
        if from == nil && profile != nil { throw ValidationError("--profile chooses a browser's profile; use it with --from") }
        if file != nil && profile != nil { throw ValidationError("give a cookie file or --profile, not both") }
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let config = try context.loadConfig()
        guard let profile = config.provider(provider) else { throw CLIError.unknownProvider(provider, in: config) }
        let scratch = RuntimeDirectory.path(context.environment), now = context.clock.now()
        let read: CookieImport
        if let from = from.flatMap(BrowserCookieSource.Browser.init(rawValue:)) {
            let source = try file.map { BrowserCookieSource(browser: from, database: $0) }
                ?? BrowserCookieSource(browser: from, profile: self.profile, home: XDG.home(context.environment),
                                       configHome: XDG.configHome(context.environment))
            read = try CookieImport(source: source, profile: profile, scratch: scratch, now: now)
        } else {
            read = try CookieImport(file: file ?? "", profile: profile, scratch: scratch, now: now)
        }
        let account = try read.save(username: username, in: try context.openStore(creating: true), at: context.clock.now())
        if json {
            var left = read.expired.map { ImportJSON.LeftOut(name: $0, count: 1, reason: "expired") }
            left += read.unreadable.map { ImportJSON.LeftOut(name: $0.name, count: 1, reason: $0.reason) }
            if read.otherSites > 0 { left.append(ImportJSON.LeftOut(count: read.otherSites, reason: "other sites")) }
            return try context.output.json(ImportJSON(account: account.id, provider: account.providerId, site: read.site.host,
                                                      imported: read.cookies.map(\.name), left_out: left))
        }
        context.output.raw("Imported \(CookieImport.count(read.cookies.count, "cookie")) for \(read.site) as \(account.id) (\(read.cookies.map(\.name).joined(separator: ", "))).\n")
        if let leftOut = read.leftOut { context.output.raw(leftOut + "\n") }
    }
}
