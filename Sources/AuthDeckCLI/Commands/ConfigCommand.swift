import ArgumentParser
import AuthDeckCore
import AuthDeckConfig
import AuthDeckPlatform

/// `authdeck config`: changes to config.toml that are easier as commands.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Change config.toml (import an OAM configuration URL).",
        subcommands: [ConfigImportURLCommand.self])
}

/// `authdeck config import-url URL [--name N]`: an OAM mobile configuration URL
/// (`wp://settings?AuthServerType::=…&OAMMSURL::=…`) becomes a `kind = "oam"` provider.
struct ConfigImportURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-url", abstract: "Add an OAM provider from a mobile configuration URL.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The configuration URL, quoted: 'wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=…'") var url: String
    @Option(name: .long, help: "The provider id (default: from ApplicationName).") var name: String?
    @Option(name: .long, help: ArgumentHelp("The OAuth client id, when the URL has no OAuthClientID.", valueName: "id")) var clientId: String?

    func run() async throws {
        let context = DeckContext(global)
        let parsed: OAMConfigURL
        do { parsed = try OAMConfigURL.parse(url) } catch let e as OAMConfigURL.ParseError {
            throw CLIError.failure("configuration URL: \(e.description); nothing was written")
        }
        let id = name ?? parsed.suggestedID
        var profile = parsed.profile(id: id)
        if let clientId {
            guard !clientId.isEmpty else { throw CLIError.usage("--client-id is empty; nothing was written") }
            profile.clientId = clientId
        }
        try ConfigWriter.append(profile, to: context.configPath, home: XDG.home(context.environment))
        for line in parsed.internationalHosts { Output.note(line) }
        if !parsed.ignored.isEmpty { Output.note("Ignored (not on the allow-list): \(parsed.ignored.map(TerminalText.inert).joined(separator: ", "))") }
        Output.raw("Added provider \"\(id)\" (kind oam) to \(context.configPath).\n")
        // Only the OAuth server type needs one: Mobile and Social REST signs in with the password alone.
        if profile.clientId == nil, profile.options["server_type"] != "mobile-social" {
            Output.note("The URL names no OAuthClientID: set client_id for \"\(id)\" in \(context.configPath) (a commented line marks it) before the first sign-in, or import again with --client-id.")
        }
    }
}
