import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckApp

/// The token a `[[credential]]` entry routes a tool to: its account resolved as ACCOUNT is
/// everywhere (a provider id means the default account), its scopes asked for, renewed when
/// needed. What git's, kubectl's and docker's helpers share.
struct RoutedToken {
    let context: DeckContext
    let config: DeckConfig
    /// The config file's identity taken before `config` was read: given, `TokenAccess` records
    /// the config for the front (`FrontRecord`), which then answers the next calls alone.
    var configIdentity: String? = nil
    /// Whether an ambiguous account may be picked on the terminal (`AccountPick`): the caller
    /// knows whether its tool leaves a person there (`GIT_TERMINAL_PROMPT=0`, kubectl's
    /// `spec.interactive`).
    var ask = false

    /// The token and the username to present; a `ReportedError` when the account cannot be
    /// found (naming the `[[credential]]` entry when `fromConfig`) or cannot give a token without
    /// a person.
    func token(for route: CredentialRoute, fromConfig: Bool = true) async throws -> (AccessToken, username: String) {
        let store = try context.openStore()
        let stored: StoredAccount
        do {
            let about = fromConfig ? "[[credential]] url \"\(route.url)\" (account = \"\(route.account)\")" : nil
            stored = try context.resolveAccount(route.account, in: store, asking: ask ? context.asking(config, about: about) : nil)
        } catch let error as CLIError where fromConfig {
            throw CLIError(message: "\(config.path): [[credential]] url \"\(route.url)\": account: \(error.message)", status: error.status)
        }
        let token = try await TokenAccess(wiring: context.wiring(store), config: config, configIdentity: configIdentity).token(stored, scopes: route.scopes)
        return (token, route.username ?? stored.account.username)
    }
}
