import ArgumentParser
import AuthDeckCore
import AuthDeckApp
import AuthDeckProviders
import AuthDeckConfig

/// `authdeck providers`: the configured providers, what each can do, and their accounts.
struct ProvidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers", abstract: "List the configured providers and what each can do.")

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Print JSON.") var json = false

    struct ProviderJSON: Encodable {
        var id: String
        var kind: String
        var client_id: String?
        var scopes: [String]
        var flow: String?
        var flows: [String]
        var silent_renewal: Bool
        var server_revocation: Bool
        var credentials: [String]
        var accounts: Int
        var expected_realm: String?
        /// What stops a sign-in before it starts (a setting missing or wrong), nil when ready.
        var problem: String?
    }

    func run() async throws {
        let context = DeckContext(global)
        let config = try context.loadConfig()
        let store = try context.openStoreIfPresent()
        let counts = Dictionary(try store?.accountRows(includeQuarantined: false).map { ($0.providerId, 1) } ?? [], uniquingKeysWith: +)
        let adapters = ProviderWiring.adapterContext(store: store, config: config, clock: context.clock, environment: context.environment)
        let rows = config.providers.map { p -> ProviderJSON in
            let caps = ProviderCapabilities.of(p)
            return ProviderJSON(id: p.id, kind: p.kind.rawValue, client_id: p.clientId, scopes: p.scopes,
                                flow: p.flow?.rawValue, flows: caps.flows.map(\.rawValue), silent_renewal: caps.silentRenewal,
                                server_revocation: caps.serverRevocation,
                                credentials: (caps.producesTokens ? ["tokens"] : []) + (caps.producesCookies ? ["cookies"] : []),
                                accounts: counts[p.id] ?? 0,
                                expected_realm: p.expectedRealm, problem: problem(p, config, adapters))
        }
        if json { return try Output.json(rows) }
        if rows.isEmpty {
            Output.raw("No providers configured. Add [[provider]] tables to \(config.path) (see authdeck(1)).\n")
            return
        }
        var table = TablePrinter("ID", "KIND", "ACCOUNTS", "FLOWS", "SILENT RENEWAL")
        for (row, profile) in zip(rows, config.providers) {
            table.add([row.id, profile.kind.label, String(row.accounts), row.flows.joined(separator: ","),
                       ProviderCapabilities.renewalUnavailableReason(profile) ?? "yes"])
        }
        Output.raw(table.render())
        for row in rows {
            if let problem = row.problem { Output.raw("\(row.id): not ready to sign in: \(problem) (edit \(config.path))\n") }
        }
    }

    /// The adapter's own check of its settings, as a sign-in would meet it first.
    func problem(_ profile: ProviderProfile, _ config: DeckConfig, _ adapters: AdapterContext) -> String? {
        do {
            _ = try ProviderRegistry.adapter(for: profile, context: adapters, config: config.providers)
            return nil
        } catch let f as AuthFailure {
            return f.remedy
        } catch {
            return "\(error)"
        }
    }
}
