import ArgumentParser
import AuthDeckCore
import AuthDeckApp

/// `authdeck refresh`: renews accounts silently (refresh token, client credentials…).
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Renew ACCOUNT (or --all expired and expiring accounts) without signing in.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The account to renew.", completion: Completions.accounts) var account: String?
    @Flag(name: .long, help: "Every account that is expired or expiring soon and can renew silently.") var all = false
    @Flag(name: .long, help: "Renew even when the current token is still good.") var force = false
    @Option(name: .long, help: "How many renewals run at once with --all.") var parallel = 4
    @Flag(name: .long, help: "Print JSON.") var json = false

    struct ResultJSON: Encodable {
        var id: String
        var ok: Bool
        var state: String?
        var expires_at: String?
        var error_class: String?
        var remedy: String?
    }

    func validate() throws {
        if (account == nil) == !all { throw ValidationError("name one ACCOUNT, or pass --all") }
        if parallel < 1 || parallel > 32 { throw ValidationError("--parallel must be between 1 and 32") }
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let config = try context.loadConfig()
        let store = try context.openStore()
        let refresh = Refresh(wiring: context.wiring(store), config: config)
        // A named account is renewed now (the user asked); --all takes what is due.
        let targets: [Refresh.Target]
        var needSignIn: [Refresh.Result] = []
        if let account {
            targets = [(try context.resolveAccount(account, in: store, asking: json ? nil : context.asking(config)), true)]
        } else {
            (targets, needSignIn) = try await refresh.due(force: force)
        }
        let outcomes = (await refresh.run(targets, named: account != nil, parallel: parallel) + needSignIn).sorted { $0.id < $1.id }
        let results = outcomes.map { r in
            ResultJSON(id: r.id, ok: r.ok, state: r.ok ? "signed_in" : nil, expires_at: r.ok ? r.expiresAt?.iso8601 : nil,
                       error_class: r.failure?.errorClass.jsonName, remedy: r.failure?.remedy)
        }
        if json {
            try context.output.json(results)
        } else if results.isEmpty {
            context.output.raw("Nothing needs renewing.\n")
        } else {
            for r in results {
                if r.ok {
                    context.output.raw("renewed \(r.id): valid until \(r.expires_at ?? "no expiry")\n")
                } else {
                    context.output.error("\(r.id): \(r.remedy ?? "failed")")
                }
            }
        }
        let failed = Set(outcomes.compactMap { $0.failure?.errorClass })
        if failed.contains(.needsInteraction) { throw ExitCode(ExitStatus.needsSignIn) }
        if failed.contains(.transient) { throw ExitCode(ExitStatus.transient) }
        if !failed.isEmpty { throw ExitCode(ExitStatus.failure) }
    }
}
