import ArgumentParser
import AuthDeckCore
import AuthDeckProviders

/// `authdeck login PROVIDER`: signs a new account in (or an existing one again).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in to PROVIDER (device code, browser, password, client credentials).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The provider id from config.toml.") var provider: String
    @Flag(exclusivity: .exclusive, help: "The sign-in flow (default: the provider's `flow`, else its first).")
    var flow: FlowChoice?
    @Option(name: .long, help: "Username for --password.") var username: String?
    @Option(name: .long, help: ArgumentHelp("Read the password from this file (else AUTHDECK_PASSWORD, else a prompt).", valueName: "path"))
    var passwordFile: String?
    @Flag(name: .long, help: "Do not start a browser; print the URL only.") var noBrowser = false
    @Option(name: .long, help: ArgumentHelp("Give up waiting for the person after this long.", valueName: "span")) var timeout = "10m"
    @Flag(name: .long, help: "Print the account as JSON.") var json = false

    enum FlowChoice: String, EnumerableFlag {
        case device, browser, password, client, assertion
        static func name(for value: FlowChoice) -> NameSpecification { .long }
    }

    func validate() throws {
        if TimeSpan(parsing: timeout) == nil { throw ValidationError("--timeout \"\(timeout)\" is not a duration such as 5m") }
    }

    func run() async throws {
        let context = DeckContext(global)
        let config = try context.loadConfig()
        let store = try context.openStore()
        let adapter: any ProviderAdapter
        do { adapter = try context.adapter(for: provider, config: config, store: store) } catch let f as AuthFailure { throw CLIError.from(f) }
        let offered = adapter.capabilities.flows
        let chosen = flow.flatMap { SignInFlow(rawValue: $0.rawValue) } ?? adapter.profile.flow ?? offered.first ?? .device
        guard offered.contains(chosen) || chosen == .assertion else {
            throw CLIError.usage("provider \"\(provider)\" does not offer --\(chosen.rawValue) (it offers: \(offered.map { "--\($0.rawValue)" }.joined(separator: ", ")))")
        }
        var options = SignInOptions(username: username, openBrowser: !noBrowser, timeout: TimeSpan(parsing: timeout)!)
        if chosen == .password {
            guard username != nil else { throw CLIError.usage("--password needs --username") }
            options.password = try PasswordReader.read(file: passwordFile, environment: context.environment,
                                                       prompt: "Password for \(username!) at \(provider): ")
        }
        let coordinator = SignInCoordinator(store: store, clock: context.clock)
        let stored: StoredAccount
        do {
            stored = try await coordinator.signIn(with: adapter, flow: chosen, presenter: CLIPresenter(clock: context.clock), options: options)
        } catch let failure as AuthFailure {
            throw CLIError.from(failure)
        }
        if json {
            let assessment = try context.assess(store, config)
            if let entry = assessment.entries.first(where: { $0.stored.account.id == stored.account.id }) {
                return try Output.json(AccountJSON(entry, now: assessment.now, skew: config.statePolicy.clockSkew))
            }
        }
        let until = stored.credentials.usableUntil(at: context.clock.now(), skew: config.statePolicy.clockSkew)
        let what = stored.credentials.accessTokens.isEmpty && !stored.credentials.cookies.isEmpty ? "the cookies expire" : "the token expires"
        Output.raw("Signed in as \(TerminalText.inert(stored.account.username)) (\(stored.account.id)); \(what) \(ExpiryText.describe(until, now: context.clock.now(), neverExpires: true)).\n")
    }
}
