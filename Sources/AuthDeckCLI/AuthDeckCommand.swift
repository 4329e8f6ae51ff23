import ArgumentParser
import AuthDeckCore
import AuthDeckTerminal

/// The `authdeck` command: with no subcommand, the deck on a terminal and `status` otherwise.
struct AuthDeckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authdeck",
        abstract: "A terminal deck of every account you sign in with, and their tokens and cookies.",
        discussion: """
            Exit status: 0 ok, 1 failure, 2 usage error or ambiguous ACCOUNT, 3 an interactive \
            sign-in is needed, 4 a transient (network) failure.
            ACCOUNT is an account id, a username, provider/username, or a unique prefix of either. \
            When ACCOUNT names several accounts and a person is at the terminal, token, cookies, \
            request, exec, refresh, kube-credential and git-credential ask which one on /dev/tty; a \
            provider id's pick is remembered as its default (`authdeck use`). Never with --json, \
            --no-input, GIT_TERMINAL_PROMPT=0 (git's helper) or without a terminal.
            """,
        version: AuthDeckCore.version,
        subcommands: [DeckCommand.self, DemoCommand.self, StatusCommand.self, ProvidersCommand.self, AccountsCommand.self, UseCommand.self, LoginCommand.self, RefreshCommand.self, TokenCommand.self, ImportCommand.self, ConfigCommand.self, MSALCommand.self,
                      CookiesCommand.self, RequestCommand.self, ExecCommand.self, WatchCommand.self, LogoutCommand.self, PruneCommand.self, EventsCommand.self, KeyCommand.self,
                      GitCredentialCommand.self, SetupGitCommand.self, KubeCredentialCommand.self, SetupKubeCommand.self, DockerCredentialCommand.self, AgentCommand.self],
        defaultSubcommand: nil)

    @OptionGroup var global: GlobalOptions

    /// `authdeck` alone: the deck on a terminal, `status` for scripts and pipes.
    func run() async throws {
        var args: [String] = []
        if let store = global.store { args += ["--store", store] }
        if let config = global.config { args += ["--config", config] }
        if TerminalProbe.isInteractive {
            let deck = try DeckCommand.parse(args)
            try await deck.run()
        } else {
            let status = try StatusCommand.parse(args)
            try await status.run()
        }
    }
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Use this store file (default: $XDG_DATA_HOME/authdeck/authdeck.db).",
                                            valueName: "path"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("Use this config file (default: $XDG_CONFIG_HOME/authdeck/config.toml).",
                                            valueName: "path"))
    var config: String?

    @Flag(name: .long, help: ArgumentHelp("Never ask on the terminal: an ambiguous ACCOUNT fails with its candidates (exit 2) instead of a pick."))
    var noInput = false
}
