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
    @Flag(name: .long, help: "Print JSON: the provider written (its id, kind, endpoints, options), the file, and the keys ignored.") var json = false

    /// The `--json` answer: the provider as it was written to config.toml.
    struct ImportedJSON: Encodable {
        var id: String
        var kind: String
        var client_id: String?
        var scopes: [String]
        var endpoints: [String: String]
        var options: [String: String]
        var config: String
        /// URL keys not on the allow-list, left out of the config.
        var ignored: [String]
        /// What still has to be done before the first sign-in (a missing client id).
        var notes: [String]
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
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
        for line in parsed.internationalHosts { context.output.note(line) }
        if !parsed.ignored.isEmpty { context.output.note("Ignored (not on the allow-list): \(parsed.ignored.map(TerminalText.inert).joined(separator: ", "))") }
        // Only the OAuth server type needs one: Mobile and Social REST signs in with the password alone.
        let missing = profile.clientId == nil && profile.options["server_type"] != "mobile-social"
            ? "The URL names no OAuthClientID: set client_id for \"\(id)\" in \(context.configPath) (a commented line marks it) before the first sign-in, or import again with --client-id."
            : nil
        if json {
            return try context.output.json(ImportedJSON(id: id, kind: profile.kind.rawValue, client_id: profile.clientId, scopes: profile.scopes,
                                                        endpoints: profile.endpoints, options: profile.options, config: context.configPath,
                                                        ignored: parsed.ignored, notes: missing.map { [$0] } ?? []))
        }
        context.output.raw("Added provider \"\(id)\" (kind oam) to \(context.configPath).\n")
        if let missing { context.output.note(missing) }
    }
}
