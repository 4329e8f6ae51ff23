import ArgumentParser
import AuthDeckCore
import AuthDeckApp

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
        let read = try CookieImport(file: file, profile: profile, scratch: RuntimeDirectory.path(context.environment), now: context.clock.now())
        let account = try read.save(username: username, in: try context.openStore(creating: true), at: context.clock.now())
        Output.raw("Imported \(read.cookies.count) cookies for \(read.site) as \(account.id) (\(read.cookies.map(\.name).joined(separator: ", "))).\n")
    }
}
