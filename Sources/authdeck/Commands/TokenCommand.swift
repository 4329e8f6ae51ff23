import ArgumentParser
import AuthDeckCore
import AuthDeckProviders
import AuthDeckPlatform

/// `authdeck token ACCOUNT`: prints a valid access token for scripts, and nothing else.
///
/// stdout carries only the token (so `$(authdeck token work)` is safe); everything else
/// goes to stderr. An expired token is renewed silently first (single-flight with other
/// processes); exit 3 with the remedy when only a sign-in can help, 4 when the network failed.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a valid access token for ACCOUNT.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Account id, username, provider/username or a unique prefix.", completion: Completions.accounts) var account: String
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Scope the token must carry (repeatable).", valueName: "scope"))
    var scope: [String] = []

    func run() async throws {
        try await Self.printToken(account: account, scopes: scope, context: DeckContext(global))
    }

    /// The whole command; `AuthDeckMain` calls it directly for `authdeck token ACCOUNT`
    /// without the argument parser. Why: the parser's set-up is reflection-driven and slow, and
    /// this is the command scripts and prompts call most.
    static func printToken(account: String, scopes scope: [String], context: DeckContext) async throws {
        // The config file's identity is taken before it is read, so an edit in between makes
        // the record stale (the front then defers to this binary) instead of wrongly fresh.
        let configIdentity = TokenFastPath.configIdentity(path: context.configPath)
        let (config, store, stored) = try context.openAccount(account)
        if let profile = config.provider(stored.account.providerId), !ProviderCapabilities.of(profile).producesTokens {
            throw Self.cookieAccount(stored.account, profile: profile)
        }
        let now = context.clock.now()
        let skew = config.statePolicy.clockSkew
        if let configIdentity {
            try? store.saveTokenFastPath(TokenFastPath(configIdentity: configIdentity, clockSkewSeconds: skew.seconds))
        }
        if let token = stored.credentials.usableAccessToken(for: scope, at: now, skew: skew) {
            // The "last used" time moves at most once a minute; skip the write transaction
            // (and its lock) when the row already says "just now".
            if stored.account.lastUsedAt.map({ now - $0 >= .seconds(60) }) ?? true {
                try? store.touch(accountId: stored.account.id, at: now)
            }
            Output.raw(token.value.exposedValue + "\n")
            return
        }
        // A grant the provider already rejected is not retried behind a script's back (it
        // would fail the same way, every time): `authdeck refresh ACCOUNT` retries on request.
        if stored.account.lastError?.errorClass == .needsInteraction {
            throw CLIError.needsSignIn(Remedy.forMissingToken(stored, scopes: scope, now: now, skew: skew))
        }
        // Renew silently: the new tokens are committed to the store before one is printed.
        let adapter: any ProviderAdapter
        do {
            adapter = try context.adapter(for: stored.account.providerId, config: config, store: store)
        } catch {
            throw CLIError.needsSignIn(Remedy.forMissingToken(stored, scopes: scope, now: now, skew: skew))
        }
        do {
            let renewed = try await context.renewer(store, config).renew(stored.account.id, with: adapter, scopes: scope)
            // A token the server has just issued is handed out even when it lives shorter
            // than the clock-skew margin, which exists for cached tokens.
            guard let token = renewed.credentials.usableAccessToken(for: scope, at: context.clock.now(), skew: .seconds(0)) else {
                let asked = scope.isEmpty ? "its configured scopes" : "scope \(scope.joined(separator: " "))"
                throw CLIError.needsSignIn("\(stored.account.id): the provider renewed the account but granted no token for \(asked); sign in with it: `authdeck login \(stored.account.providerId)`")
            }
            try? store.touch(accountId: stored.account.id, at: context.clock.now())
            Output.raw(token.value.exposedValue + "\n")
        } catch let failure as AuthFailure {
            throw CLIError.from(failure, account: stored.account.id)
        }
    }

    /// A usage error (exit 2) for an account whose provider issues cookies: no sign-in would
    /// give it a token, so exit 3 would send a script into a pointless sign-in.
    static func cookieAccount(_ account: Account, profile: ProviderProfile) -> CLIError {
        let name = TerminalText.inert(account.providerId + "/" + account.username)
        return CLIError.usage("""
            \(name) is a \(profile.kind.rawValue) account: it holds cookies, not tokens; \
            use `authdeck cookies \(account.id)` for a cookie jar, or `authdeck request \(account.id) URL` to call the site with them
            """)
    }
}
