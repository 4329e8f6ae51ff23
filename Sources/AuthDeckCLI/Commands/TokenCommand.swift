import ArgumentParser
import AuthDeckCore
import AuthDeckProviders
import AuthDeckPlatform
import AuthDeckApp

/// `authdeck token ACCOUNT`: prints a valid access token for scripts, and nothing else.
///
/// stdout carries only the token (so `$(authdeck token work)` is safe), or with `--json` the
/// token with what a script checks before using it (as `az account get-access-token` does);
/// everything else goes to stderr. `--format xoauth2` prints the SASL string mail clients send
/// instead (as secret as the token); `--decode` prints a JWT's header and claims, unverified. An expired token is renewed silently first (single-flight with other
/// processes); exit 3 with the remedy when only a sign-in can help, 4 when the network failed.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a valid access token for ACCOUNT.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Account id, username, provider/username or a unique prefix.", completion: Completions.tokenAccounts) var account: String
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Scope the token must carry (repeatable).", valueName: "scope"))
    var scope: [String] = []
    @Flag(name: .long, help: "Print JSON: the token with its type, expiry, scopes and account.") var json = false
    @Option(name: .long, help: ArgumentHelp("""
        token (the default) prints the token; xoauth2 prints the SASL XOAUTH2 string IMAP and SMTP clients send \
        (base64 of the username and the token): a secret like the token. Not with --json.
        """, valueName: "format"))
    var format = "token"
    @Flag(name: .long, help: """
        Print the JWT access token's header and claims as JSON, the token itself not printed. \
        The signature is NOT verified (a look, not a proof); an opaque token is an error (exit 1).
        """)
    var decode = false
    @Option(name: .long, help: ArgumentHelp("""
        With AUTHDECK_AGENT (a machine reached over SSH): how long to wait for the agent, the person's \
        confirmation and any sign-in there (default 2m, or AUTHDECK_AGENT_TIMEOUT). Without an agent it is not used.
        """, valueName: "span"))
    var timeout: String?

    /// The `--json` answer. Field names are authdeck(1)'s snake_case, as in `accounts --json`;
    /// a field with no value is left out (a token that does not expire has no `expires_at`).
    struct TokenJSON: Encodable {
        var access_token: String
        var token_type: String
        var expires_at: String?
        var expires_in_seconds: Int64?
        var scopes: [String]
        var account: String
        var provider: String
        var username: String
        var realm: String?
    }

    /// What is printed in place of the bare token.
    enum Shape: Equatable {
        case token, json, xoauth2, decoded
    }

    /// The `--decode` answer: the parts of the token, and a field that says they are unproven.
    struct DecodedJSON: Encodable {
        var header: InertJSON
        var claims: InertJSON
        var signature_verified: Bool
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        try await Self.printToken(account: account, scopes: scope, shape: try shape(), context: context)
    }

    /// The one shape the flags ask for; a value or combination that means nothing is a usage error.
    func shape() throws -> Shape {
        guard format == "token" || format == "xoauth2" else {
            throw CLIError.usage("--format \(TerminalText.inert(format)) is not a token format: use token (the default) or xoauth2")
        }
        if format == "xoauth2" {
            if json { throw CLIError.usage("--format xoauth2 prints the XOAUTH2 string alone; it has no --json form (use one or the other)") }
            if decode { throw CLIError.usage("--decode shows the token's claims; it cannot be combined with --format xoauth2") }
            return .xoauth2
        }
        if decode {
            if json { throw CLIError.usage("--decode already prints JSON; leave out --json") }
            return .decoded
        }
        return json ? .json : .token
    }

    /// The whole command; `AuthDeckMain` calls it directly for `authdeck token ACCOUNT`
    /// without the argument parser. Why: the parser's set-up is reflection-driven and slow, and
    /// this is the command scripts and prompts call most.
    static func printToken(account: String, scopes scope: [String], shape: Shape = .token, context: DeckContext) async throws {
        NetworkWarmup.beginIfDue()
        // The config file's identity is taken before it is read, so an edit in between makes
        // the record stale (the front then defers to this binary) instead of wrongly fresh.
        let configIdentity = ConfigFileIdentity.of(path: context.configPath)
        let (config, store, stored) = try context.openAccount(account, ask: shape != .json, holding: .tokens)
        if let profile = config.provider(stored.account.providerId), !ProviderCapabilities.of(profile).producesTokens {
            throw Self.cookieAccount(stored.account, profile: profile)
        }
        let token = try await TokenAccess(wiring: context.wiring(store), config: config, configIdentity: configIdentity).token(stored, scopes: scope)
        try write(token, of: stored.account, shape: shape, context: context)
    }

    /// Prints `token` of account `a` in `shape`: what a local token and one the agent sent
    /// (`RemoteMode`) both go through, so the two cannot differ.
    static func write(_ token: AccessToken, of a: Account, shape: Shape, context: DeckContext) throws {
        switch shape {
        case .token: return context.output.raw(token.value.exposedValue + "\n")
        case .xoauth2: return context.output.raw(XOAuth2.initialResponse(username: a.username, token: token.value.exposedValue) + "\n")
        case .decoded:
            let peek: AccessTokenPeek
            do throws(AccessTokenPeek.NotAJWT) { peek = try AccessTokenPeek(token: token.value.exposedValue) } catch {
                throw CLIError.failure("\(TerminalText.inert(a.providerId + "/" + a.username)): \(error.description)")
            }
            context.output.warning("the signature is NOT verified: these claims are what the token says, not proven")
            return try context.output.json(DecodedJSON(header: peek.header, claims: peek.claims, signature_verified: false))
        case .json: break
        }
        try context.output.json(TokenJSON(access_token: token.value.exposedValue, token_type: token.tokenType,
                                          expires_at: token.expiresAt?.iso8601,
                                          expires_in_seconds: token.expiresAt.map { ($0 - context.clock.now()).seconds },
                                          scopes: token.scopes, account: a.id, provider: a.providerId, username: a.username, realm: a.realm))
    }

    /// A usage error (exit 2) for an account whose provider issues cookies: no sign-in would
    /// give it a token, so exit 3 would send a script into a pointless sign-in.
    static func cookieAccount(_ account: Account, profile: ProviderProfile) -> CLIError {
        let name = TerminalText.inert(account.providerId + "/" + account.username)
        return CLIError.usage("""
            \(name) is \(profile.kind.labelWithArticle) account: it holds cookies, not tokens; \
            use `authdeck cookies \(account.id)` for a cookie jar, or `authdeck request \(account.id) URL` to call the site with them
            """)
    }
}
