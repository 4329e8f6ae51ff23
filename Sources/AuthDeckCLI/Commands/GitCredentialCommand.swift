import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckApp
import AuthDeckPlatform

/// `authdeck git-credential get|store|erase`: git's credential-helper protocol over the
/// `[[credential]]` entries of config.toml.
///
/// `get` answers with the routed account's token as the password (renewed silently when
/// needed, single-flight as `token`), the username, and `password_expiry_utc`. A URL no entry
/// covers gets nothing (exit 0), so git asks its next helper; when only a sign-in would help,
/// nothing on stdout and the remedy on stderr. When the entry's account names several accounts
/// (a provider id with no default), a person at the terminal is asked which on /dev/tty and the
/// answer becomes the provider's default (`AccountPick`); with `GIT_TERMINAL_PROMPT=0`, git's
/// own "never prompt", it is not asked and git is told nothing, as before. `store` and `erase` change nothing: the store's
/// tokens are authdeck's, and a token git saw rejected is not a reason to delete one.
///
/// The request is read by git's rules (`GitCredentialRequest`), and a path with a dot segment
/// gets nothing, with the reason on stderr (`CredentialRoute.climbs`): the front reads and
/// matches through the same Core code and hands such a request over, so this is where it is said.
struct GitCredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-credential", abstract: "git's credential helper: the token of the account [[credential]] routes a URL to.",
        discussion: """
            There is no --json: this helper speaks git's credential-helper protocol (key=value lines on stdin and stdout), \
            which git reads, and nothing else. For the token as JSON use `authdeck token ACCOUNT --json`.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "get, store or erase (git passes it).") var operation: String

    func run() async throws {
        let request = GitCredentialRequest.read(from: FileHandle.standardInput.readDataToEndOfFile())
        guard operation == "get" else {
            guard ["store", "erase"].contains(operation) else { throw CLIError.usage("git-credential takes get, store or erase (found \"\(TerminalText.inert(operation))\")") }
            return
        }
        guard let url = request.url else { return }
        // Said before the config is read: no config makes such a path safe.
        if let climb = CredentialRouting.climbReason(url) {
            return Output.error("git-credential for \(TerminalText.inert(url)): \(climb); nothing was given to git")
        }
        NetworkWarmup.beginIfDue()
        let context = DeckContext(global)
        // Taken before the file is read, so an edit in between makes the front's record stale.
        let configIdentity = ConfigFileIdentity.of(path: context.configPath)
        let config = try context.loadConfig()
        // The same decision the agent makes for a remote git (`CredentialRouting`).
        let route: CredentialRoute
        switch CredentialRouting.git(url, in: config) {
        case .none(nil): return
        case .none(let reason?): return Output.error("git-credential for \(TerminalText.inert(url)): \(reason); nothing was given to git")
        case .route(let found): route = found
        }
        do {
            let (token, username) = try await RoutedToken(context: context, config: config, configIdentity: configIdentity,
                                                          ask: context.environment["GIT_TERMINAL_PROMPT"] != "0").token(for: route)
            // git reads `key=value` lines: a username (a provider's claim, or config) holding a
            // line break or NUL would add attributes of its own (`url=`, `password=`) to the answer.
            guard let answer = GitCredentialRequest.answer(username: username, token: token.value.exposedValue, expiresAt: token.expiresAt) else {
                return Output.error("git-credential for \(TerminalText.inert(url)): the username or token holds a line break; nothing was given to git")
            }
            Output.raw(answer)
        } catch let error as ReportedError where error is CLIError || error is AuthFailure || error is TokenAccess.NeedsSignIn {
            // Nothing for git to use: it goes on to its next helper or its own prompt. (A store
            // that cannot be read is authdeck's own failure: reported as such, exit 1.)
            Output.error("git-credential for \(TerminalText.inert(url)): \(error.sentence)")
        }
    }
}
