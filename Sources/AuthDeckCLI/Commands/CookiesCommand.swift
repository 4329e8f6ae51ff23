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

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let (config, store, stored) = try context.openAccount(account)
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
            switch format {
            case .netscape: context.output.raw(try NetscapeCookieJar.render(fresh))
            case .header: context.output.raw("Cookie: " + (try NetscapeCookieJar.headerValue(fresh)) + "\n")
            }
        } catch {
            throw CLIError.failure("\(stored.account.id): \(error); sign in again or import the cookies again")
        }
    }
}
