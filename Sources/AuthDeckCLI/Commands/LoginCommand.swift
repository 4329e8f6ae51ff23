import ArgumentParser
import AuthDeckCore
import AuthDeckProviders
import AuthDeckApp

/// `authdeck login PROVIDER`: signs a new account in (or an existing one again).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in to PROVIDER (device code, browser, password, client credentials; a SharePoint site in a browser window).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The provider id from config.toml.", completion: Completions.providers) var provider: String
    @Flag(exclusivity: .exclusive, help: "The sign-in flow (default: the provider's `flow`, else its first).")
    var flow: FlowChoice?
    @Option(name: .long, help: "Username for --password; for a SharePoint --browser sign-in, the account's name.") var username: String?
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
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let config = try context.loadConfig()
        guard config.provider(provider) != nil else { throw CLIError.unknownProvider(provider, in: config) }
        let store = try context.openStore(creating: true)
        var request = CommandLineSignIn.Request(
            flow: flow.flatMap { SignInFlow(rawValue: $0.rawValue) }, username: username, openBrowser: !noBrowser,
            timeout: TimeSpan(parsing: timeout)!, connectivity: offline ? .offline : (auto ? .auto : nil),
            remember: remember.flatMap(OAMCredentialOptions.Remembrance.init(rawValue:)),
            passwordGiven: passwordFile != nil || context.environment["AUTHDECK_PASSWORD"] != nil)
        request.stopOnSignals = true
        let outcome: CommandLineSignIn.Outcome
        outcome = try await CommandLineSignIn(wiring: context.wiring(store), config: config).run(
            provider, request, presenter: CLIPresenter(context),
            password: { user in try PasswordReader.read(file: passwordFile, environment: context.environment, prompt: "Password for \(user) at \(provider): ") },
            note: { context.output.note($0) })
        let stored = outcome.stored, now = context.clock.now()
        // Saved (nothing is lost), yet no token will be given for it: said, with exit 3, as `token` would.
        try TokenAccess.refuseSignedInToOtherTenant(stored.account, config: config)
        if json {
            let assessment = try context.assess(store, config)
            if let entry = assessment.entries.first(where: { $0.stored.account.id == stored.account.id }) {
                let isDefault = (try? store.defaultAccounts(providers: [stored.account.providerId]))?.values.contains(stored.account.id) ?? false
                return AccountJSON.document(entry, now: assessment.now, skew: config.statePolicy.clockSkew, isDefault: isDefault, to: context.output.bytes)
            }
        }
        let who = "\(TerminalText.inert(stored.account.username)) (\(stored.account.id))"
        switch outcome {
        case .signedIn:
            // A lifetime inside the clock-skew margin has no "usable until"; it still has an
            // expiry, which is what is said ("the token expires no expiry" would be nonsense).
            let until = stored.credentials.usableUntil(at: now, skew: config.statePolicy.clockSkew)
                ?? stored.credentials.usableUntil(at: now, skew: .seconds(0))
            let what = stored.credentials.accessTokens.isEmpty && !stored.credentials.cookies.isEmpty ? "the cookies expire" : "the token expires"
            context.output.raw("Signed in as \(who); \(what) \(ExpiryText.describe(until, now: now, neverExpires: true)).\n")
        case .signedInByRules:
            context.output.raw("Signed in as \(who).\n")
        case .verifiedOffline:
            let until = stored.credentials.usableUntil(at: now, skew: .seconds(0))
            context.output.raw("Verified offline as \(who); cached tokens \(until.map { ExpiryText.describe($0, now: now) } ?? "have expired").\n")
        }
    }
}
