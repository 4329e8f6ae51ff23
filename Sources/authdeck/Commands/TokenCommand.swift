import ArgumentParser
import AuthDeckCore

/// `authdeck token ACCOUNT`: prints a valid access token for scripts, and nothing else.
///
/// stdout carries only the token (so `$(authdeck token work)` is safe); everything else
/// goes to stderr. Exit 3 with the remedy when only a sign-in can help.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a valid access token for ACCOUNT.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Account id, username, provider/username or a unique prefix.") var account: String
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Scope the token must carry (repeatable).", valueName: "scope"))
    var scope: [String] = []

    func run() async throws {
        let context = DeckContext(global)
        let config = try context.loadConfig()
        let store = try context.openStore()
        let stored = try context.resolveAccount(account, in: store)
        let now = context.clock.now()
        let skew = config.statePolicy.clockSkew
        if let token = stored.credentials.usableAccessToken(for: scope, at: now, skew: skew) {
            try? store.touch(accountId: stored.account.id, at: now)
            Output.raw(token.value.exposedValue + "\n")
            return
        }
        throw CLIError.needsSignIn(Remedy.forMissingToken(stored, scopes: scope, now: now, skew: skew))
    }
}
