import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckProviders
import AuthDeckConfig

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
        let context = DeckContext(global)
        let config = try context.loadConfig()
        let store = try context.openStore()
        // Each target with whether it must be renewed even if it looks fresh: a named account
        // (the user asked), --force, or credentials a provider check found dead.
        var targets: [(StoredAccount, Bool)]
        if let account {
            targets = [(try context.resolveAccount(account, in: store), true)]
        } else {
            let assessment = try context.assess(store, config)
            targets = []
            for entry in assessment.entries {
                switch entry.state {
                case .expiringSoon, .expired(renewable: true):
                    targets.append((entry.stored, force))
                case .signedIn:
                    if force {
                        targets.append((entry.stored, true))
                    } else if await Self.probeSaysDead(entry.stored, context: context, config: config, store: store) {
                        targets.append((entry.stored, true))
                    }
                default: break
                }
            }
        }
        let renewer = context.renewer(store, config)
        let window = config.statePolicy.expiringSoonWindow
        let results = await withTaskGroup(of: ResultJSON.self) { group in
            var pending = targets[...]
            var out: [ResultJSON] = []
            func start(_ target: (StoredAccount, Bool)) {
                group.addTask {
                    await Self.renewOne(target.0, context: context, config: config, store: store, renewer: renewer,
                                        force: target.1, window: account != nil ? .seconds(0) : window)
                }
            }
            for _ in 0..<parallel { if let next = pending.popFirst() { start(next) } }
            for await result in group {
                out.append(result)
                if let next = pending.popFirst() { start(next) }
            }
            return out.sorted { $0.id < $1.id }
        }
        if json {
            try Output.json(results)
        } else if results.isEmpty {
            Output.raw("Nothing needs renewing.\n")
        } else {
            for r in results {
                if r.ok {
                    Output.raw("renewed \(r.id): valid until \(r.expires_at ?? "no expiry")\n")
                } else {
                    Output.error("\(r.id): \(r.remedy ?? "failed")")
                }
            }
        }
        let failures = results.filter { !$0.ok }
        if failures.contains(where: { $0.error_class == ErrorClass.needsInteraction.rawValue }) { throw ExitCode(ExitStatus.needsSignIn) }
        if failures.contains(where: { $0.error_class == ErrorClass.transient.rawValue }) { throw ExitCode(ExitStatus.transient) }
        if !failures.isEmpty { throw ExitCode(ExitStatus.failure) }
    }

    /// Whether a provider check shows that credentials which look valid no longer work
    /// (SharePoint cookies expired server-side); those are renewed too.
    static func probeSaysDead(_ stored: StoredAccount, context: DeckContext, config: DeckConfig, store: DeckStore) async -> Bool {
        // The assessment holds summaries (no secret values): the probe sends the cookies, so
        // it reads the account in full.
        guard !stored.credentials.cookies.isEmpty, let full = try? store.account(id: stored.account.id),
              let adapter = try? context.adapter(for: stored.account.providerId, config: config, store: store),
              let alive = try? await adapter.probe(full) else { return false }
        return alive == false
    }

    /// `force` for a named account means "renew now" (the user asked for it by name).
    static func renewOne(_ target: StoredAccount, context: DeckContext, config: DeckConfig, store: DeckStore,
                         renewer: RenewalCoordinator, force: Bool, window: TimeSpan) async -> ResultJSON {
        let id = target.account.id
        do {
            let adapter = try context.adapter(for: target.account.providerId, config: config, store: store)
            let renewed = try await renewer.renew(id, with: adapter, force: force, window: window)
            let now = context.clock.now()
            // No skew margin for what the provider has just issued (a token may live shorter
            // than the margin); with one, such a token read as "no expiry".
            let until = renewed.credentials.usableUntil(at: now, skew: .seconds(0))
            return ResultJSON(id: id, ok: true, state: "signed_in", expires_at: until?.iso8601)
        } catch let failure as AuthFailure {
            return ResultJSON(id: id, ok: false, error_class: failure.errorClass.rawValue, remedy: failure.description)
        } catch let error as CLIError {
            return ResultJSON(id: id, ok: false, error_class: ErrorClass.misconfigured.rawValue, remedy: error.message)
        } catch {
            return ResultJSON(id: id, ok: false, error_class: ErrorClass.transient.rawValue, remedy: "\(error)")
        }
    }
}
