import ArgumentParser
import AuthDeckCore
import AuthDeckProviders
import AuthDeckApp
import AuthDeckStore

/// `authdeck login PROVIDER`: signs a new account in (or an existing one again).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in to PROVIDER (device code, browser, password, client credentials).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The provider id from config.toml.", completion: Completions.providers) var provider: String
    @Flag(exclusivity: .exclusive, help: "The sign-in flow (default: the provider's `flow`, else its first).")
    var flow: FlowChoice?
    @Option(name: .long, help: "Username for --password.") var username: String?
    @Option(name: .long, help: ArgumentHelp("Read the password from this file (else AUTHDECK_PASSWORD, else a prompt).", valueName: "path"))
    var passwordFile: String?
    @Flag(name: .long, help: "Do not start a browser; print the URL only.") var noBrowser = false
    @Option(name: .long, help: ArgumentHelp("Give up waiting for the person after this long.", valueName: "span")) var timeout = "10m"
    @Flag(name: .long, help: "Print the account as JSON.") var json = false
    @Flag(name: .long, help: "OAM: verify the password against the stored verifier, without the server.") var offline = false
    @Flag(name: .long, help: "OAM: use the server, or verify offline when it cannot be reached.") var auto = false
    @Option(name: .long, help: ArgumentHelp("OAM: what to keep: auto, credentials, username or none (default: the provider's defaults).", valueName: "what"))
    var remember: String?

    enum FlowChoice: String, EnumerableFlag {
        case device, browser, password, client, assertion
        static func name(for value: FlowChoice) -> NameSpecification { .long }
    }

    func validate() throws {
        if TimeSpan(parsing: timeout) == nil { throw ValidationError("--timeout \"\(timeout)\" is not a duration such as 5m") }
        if offline && auto { throw ValidationError("--offline and --auto exclude each other") }
        if let remember, OAMCredentialOptions.Remembrance(rawValue: remember) == nil {
            throw ValidationError("--remember must be auto, credentials, username or none")
        }
    }

    func run() async throws {
        let context = DeckContext(global)
        let config = try context.loadConfig()
        let store = try context.openStore()
        let adapter: any ProviderAdapter
        do { adapter = try context.adapter(for: provider, config: config, store: store) } catch let f as AuthFailure { throw CLIError.from(f) }
        let offered = adapter.capabilities.flows
        let chosen = SignInFlowChoice.forCommandLine(flow.flatMap { SignInFlow(rawValue: $0.rawValue) }, adapter: adapter)
        guard offered.contains(chosen) || chosen == .assertion else {
            throw CLIError.usage("provider \"\(TerminalText.inert(provider))\" does not offer --\(chosen.rawValue) (it offers: \(offered.map { "--\($0.rawValue)" }.joined(separator: ", ")))")
        }
        if adapter.profile.kind == .oam, chosen == .password || offline || auto {
            return try await oamLogin(adapter, context: context, store: store)
        }
        if offline || auto || remember != nil { throw CLIError.usage("--offline, --auto and --remember are for OAM providers") }
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

    /// OAM's password sign-in with the SDK's rules: remembered username and password,
    /// offline verification, auto connectivity, lockout (OAMLoginService).
    func oamLogin(_ adapter: any ProviderAdapter, context: DeckContext, store: DeckStore) async throws {
        let service = OAMLoginService(adapter: adapter, store: store, clock: context.clock)
        let existing = try service.existing(username: username)
        guard let user = username ?? existing?.account.username else {
            throw CLIError.usage("--username is needed (no remembered username for \(adapter.profile.id))")
        }
        let mode: OAMLoginService.Mode = offline ? .offline : (auto ? .auto : .online)
        let requested = remember.flatMap(OAMCredentialOptions.Remembrance.init(rawValue:))
        // A remembrance the provider forbids is refused before anything is read or said.
        do { _ = try service.remembrance(requested: requested, existing: existing) } catch let f as AuthFailure { throw CLIError.from(f) }
        // A password the person gives (file or environment) is the one sent; the stored one
        // stands in only when none is given.
        let given = passwordFile != nil || context.environment["AUTHDECK_PASSWORD"] != nil
        var password = mode == .offline || given ? nil : service.storedPassword(existing)
        let usedStored = password != nil
        if usedStored { Output.note("Using the stored credentials of \(TerminalText.inert(user)).") }
        if password == nil {
            password = try PasswordReader.read(file: passwordFile, environment: context.environment, prompt: "Password for \(user) at \(provider): ")
        }
        do {
            switch try await service.signIn(mode: mode, username: user, password: password!, usedStoredPassword: usedStored,
                                            remember: requested, presenter: CLIPresenter(clock: context.clock)) {
            case .online(let stored):
                Output.raw("Signed in as \(TerminalText.inert(stored.account.username)) (\(stored.account.id)).\n")
            case .offline(let stored):
                let until = stored.credentials.usableUntil(at: context.clock.now(), skew: .seconds(0))
                Output.raw("Verified offline as \(TerminalText.inert(stored.account.username)) (\(stored.account.id)); cached tokens \(until.map { ExpiryText.describe($0, now: context.clock.now()) } ?? "have expired").\n")
            }
        } catch let f as AuthFailure {
            throw CLIError.from(f)
        }
    }
}
