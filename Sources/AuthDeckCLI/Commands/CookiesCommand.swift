import ArgumentParser
import AuthDeckCore
import AuthDeckApp

/// `authdeck cookies ACCOUNT`: the account's cookies as a curl jar or a Cookie header.
struct CookiesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cookies", abstract: "Print ACCOUNT's cookies as a Netscape jar (curl -b) or a Cookie header.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case netscape
        case header
    }

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Account id, username, provider/username or a unique prefix.", completion: Completions.cookieAccounts) var account: String
    @Option(name: .long, help: "netscape (a jar for curl -b) or header (a Cookie: header line).") var format: Format = .netscape
    @Flag(name: .long, help: "Print JSON: each cookie's name, value, domain, path, expiry and flags, and the account. Not with --format.")
    var json = false
    @Option(name: .long, help: ArgumentHelp("""
        With AUTHDECK_AGENT (a machine reached over SSH): how long to wait for the agent, the person's \
        confirmation and any sign-in there (default 2m, or AUTHDECK_AGENT_TIMEOUT). Without an agent it is not used.
        """, valueName: "span"))
    var timeout: String?

    /// The `--json` answer: the account and its cookies, as `token --json` gives a token with
    /// what a script checks before using it. A session cookie has no `expires_at`.
    struct CookiesJSON: Encodable {
        var account: String
        var provider: String
        var username: String
        var cookies: [CookieJSON]
    }

    struct CookieJSON: Encodable {
        var name: String
        var value: String
        var domain: String
        var path: String
        var expires_at: String?
        var expires_in_seconds: Int64?
        /// A leading dot in `domain`: subdomains are sent the cookie too (the jar's second field).
        var include_subdomains: Bool
        var secure: Bool
        var http_only: Bool
    }

    func validate() throws {
        if json && format != .netscape { throw ValidationError("--json prints the cookies as JSON; leave out --format") }
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let (config, store, stored) = try context.openAccount(account, ask: true, holding: .cookies)
        let cookies = stored.credentials.cookies
        if cookies.isEmpty {
            if let profile = config.provider(stored.account.providerId), !ProviderCapabilities.of(profile).producesCookies {
                // The wrong command for the account, as `token` on a cookie account: exit 2.
                throw CLIError.usage("""
                    \(TerminalText.inert(stored.account.providerId + "/" + stored.account.username)) is \(profile.kind.labelWithArticle) account: \
                    it holds tokens, not cookies; use `authdeck token \(stored.account.id)`, or `authdeck request \(stored.account.id) URL`
                    """)
            }
            throw CLIError.failure("\(stored.account.id) holds no cookies (it is not a cookie-based account)")
        }
        // Expired but renewable cookies are renewed first, as `token` renews a token.
        let fresh = try await CookieAccess(wiring: context.wiring(store), config: config).cookies(stored)
        // A stored cookie that would break the jar or the header line is refused, never printed.
        do {
            if json {
                // The same check the jar and the header make: a value that would break them is not handed out either.
                _ = try NetscapeCookieJar.render(fresh)
                let now = context.clock.now(), a = stored.account
                return try context.output.json(CookiesJSON(account: a.id, provider: a.providerId, username: a.username, cookies: fresh.map { c in
                    CookieJSON(name: c.name, value: c.value.exposedValue, domain: c.domain, path: c.path, expires_at: c.expiresAt?.iso8601,
                               expires_in_seconds: c.expiresAt.map { ($0 - now).seconds }, include_subdomains: c.domain.hasPrefix("."),
                               secure: c.secure, http_only: c.httpOnly)
                }))
            }
            switch format {
            case .netscape: context.output.raw(try NetscapeCookieJar.render(fresh))
            case .header: context.output.raw("Cookie: " + (try NetscapeCookieJar.headerValue(fresh)) + "\n")
            }
        } catch {
            throw CLIError.failure("\(stored.account.id): \(error); sign in again or import the cookies again")
        }
    }
}
