import ArgumentParser
import AuthDeckCore
import AuthDeckApp

/// `authdeck import msal [FILE] --provider P`: an MSAL cache's accounts become Azure AD
/// accounts of provider P, their refresh tokens sealed, so `authdeck refresh` renews them.
///
/// Refresh tokens are bound to the client that obtained them: only those issued to P's
/// `client_id` are imported; the others are listed as skipped.
struct ImportMSALCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "msal", abstract: "Import the accounts of an MSAL token cache as Azure AD accounts.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The cache file (default ~/.azure/msal_token_cache.json).") var file: String?
    @Option(name: .long, help: ArgumentHelp("The azuread provider they belong to.", valueName: "id"), completion: Completions.providers) var provider: String

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let config = try context.loadConfig()
        let profile = config.provider(provider)
        let clientId = try MSALImport.clientId(of: profile, providerId: provider, configPath: config.path)
        let result = try MSALImport(store: try context.openStore(creating: true), clock: context.clock)
            .run(path: file ?? MSALCommand.defaultPath(context.environment), shownAs: file ?? "~/.azure/msal_token_cache.json",
                 profile: profile!, clientId: clientId)
        let (imported, skipped) = (result.imported, result.skipped)
        if !skipped.isEmpty { context.output.note("Skipped: " + skipped.map(TerminalText.inert).joined(separator: "; ")) }
        context.output.raw(imported.isEmpty ? "Nothing imported.\n"
                           : "Imported \(imported.count): \(Self.list(imported, separator: ", ")). Run `authdeck refresh --all` to renew their tokens.\n")
        if imported.isEmpty && !skipped.isEmpty { throw ExitCode(ExitStatus.failure) }
    }

    /// The first ten items and how many more: a cache of thousands of accounts made one line
    /// of hundreds of kilobytes. (What was skipped is always listed whole: each says why.)
    static func list(_ items: [String], separator: String) -> String {
        let shown = items.prefix(10).map(TerminalText.inert).joined(separator: separator)
        return items.count > 10 ? shown + "\(separator)and \(items.count - 10) more (`authdeck accounts` lists them)" : shown
    }
}
