import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckApp

/// A sign-in a host's request needs, done on the agent's terminal as `authdeck login` does it
/// (`CommandLineSignIn`: the device code shown, or the browser opened on this machine), so
/// the refresh token it gives stays here.
struct TerminalSignIn: AgentSigningIn {
    let context: DeckContext
    let config: DeckConfig
    let store: DeckStore
    /// False with `--no-input`: nobody is there to sign in.
    let enabled: Bool

    func signIn(_ stored: StoredAccount, timeout: Double) async -> Bool {
        guard enabled, timeout >= 1 else { return false }
        let account = stored.account
        context.output.note("authdeck agent: a host needs \(account.providerId)/\(TerminalText.inert(account.username)) signed in again; signing in here…")
        do {
            _ = try await CommandLineSignIn(wiring: context.wiring(store), config: config).run(
                account.providerId, CommandLineSignIn.Request(flow: nil, username: account.username, openBrowser: true,
                                                             timeout: .seconds(Int64(timeout)), passwordGiven: false),
                presenter: CLIPresenter(clock: context.clock),
                password: { user in try PasswordReader.read(file: nil, environment: context.environment, prompt: "Password for \(user): ") },
                note: { context.output.note($0) })
            return true
        } catch {
            context.output.note("authdeck agent: the sign-in did not finish: \((error as? ReportedError)?.sentence ?? "\(error)")")
            return false
        }
    }
}
