import ArgumentParser
import AuthDeckCore
import AuthDeckApp
import AuthDeckProviders
import AuthDeckConfig

/// `authdeck providers`: the configured providers (`list`, the default) and their dynamic
/// client registrations (`unregister`).
struct ProvidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers", abstract: "List the configured providers and what each can do.",
        subcommands: [ProvidersListCommand.self, ProvidersUnregisterCommand.self], defaultSubcommand: ProvidersListCommand.self)
}

/// `authdeck providers [list]`: the configured providers, what each can do, their accounts,
/// and how each holds its client (configured, or registered dynamically at the issuer).
struct ProvidersListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the configured providers and what each can do.")

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Print JSON.") var json = false

    struct ProviderJSON: Encodable {
        var id: String
        var kind: String
        var client_id: String?
        var scopes: [String]
        var flow: String?
        /// The sign-in flows that can run now: none while `problem` stands.
        var flows: [String]
        /// Whether accounts renew without a person: false while `problem` stands.
        var silent_renewal: Bool
        var server_revocation: Bool
        var credentials: [String]
        var accounts: Int
        var expected_realm: String?
        /// What stops a sign-in before it starts (a setting missing or wrong), nil when ready.
        var problem: String?
        /// "configured" (client_id in config.toml), "dynamic" (registered at the issuer), or
        /// "unregistered" (an oidc provider that registers on its first sign-in).
        var client: String
        /// For "dynamic": where and when it was registered.
        var registration: String?
        /// What the next sign-in changes in the registration (config asks for other grants).
        var registration_change: String?
        /// For "unregistered": why discovery could not be read to check that the issuer
        /// registers clients (nil: checked, or nothing to check).
        var discovery_unchecked: String?
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let config = try context.loadConfig()
        // The store only counts accounts here: one named but not created yet (AUTHDECK_STORE
        // set before the first sign-in) is said, not an error — `providers` is what says what
        // is missing before that sign-in. Nothing is created.
        let store = context.storeExists ? try context.openStore() : nil
        if store == nil, context.storeExplicit {
            context.output.note("authdeck: no store at \(TerminalText.inert(context.location.databasePath)) yet (nothing was created); accounts are counted once a sign-in creates it")
        }
        let counts = Dictionary(try store?.accountRows(includeQuarantined: false).map { ($0.providerId, 1) } ?? [], uniquingKeysWith: +)
        let adapters = context.adapterContext(store: store, config: config)
        var rows: [ProviderJSON] = []
        for p in config.providers {
            let caps = ProviderCapabilities.of(p)
            // Built once: its failure is the provider's problem, its registration the client's.
            let built = Result { try ProviderRegistry.adapter(for: p, context: adapters, config: config.providers) }
            let holder = (try? built.get()) as? ClientRegistrationHolder
            let registration = holder.flatMap { try? $0.registrationSummary() }
            let client = p.clientId != nil ? "configured" : registration != nil ? "dynamic" : p.kind == .oidc ? "unregistered" : "configured"
            // A registered client offers only the flows its grants allow.
            let flows = holder.flatMap { try? $0.registeredFlows() } ?? caps.flows
            // Whether the first sign-in can register: discovery, cached or fetched once.
            let outlook = client == "unregistered" ? await holder?.registrationOutlook(timeout: Self.discoveryTimeout) : nil
            var problem = Self.problem(built)
            if problem == nil, case .needsClientId(let remedy) = outlook { problem = remedy }
            var unchecked: String?
            if case .unchecked(let why) = outlook { unchecked = why }
            // A provider that cannot sign in offers no flow and renews nothing until its problem is fixed.
            let ready = problem == nil
            rows.append(ProviderJSON(id: p.id, kind: p.kind.rawValue, client_id: p.clientId, scopes: p.scopes,
                                flow: p.flow?.rawValue, flows: ready ? flows.map(\.rawValue) : [], silent_renewal: ready && caps.silentRenewal,
                                server_revocation: caps.serverRevocation,
                                credentials: (caps.producesTokens ? ["tokens"] : []) + (caps.producesCookies ? ["cookies"] : []),
                                accounts: counts[p.id] ?? 0,
                                expected_realm: p.expectedRealm, problem: problem,
                                client: client, registration: registration,
                                registration_change: holder.flatMap { try? $0.pendingRegistrationChange() },
                                discovery_unchecked: unchecked))
        }
        if json { return try context.output.json(rows) }
        if rows.isEmpty {
            context.output.raw("No providers configured. Add [[provider]] tables to \(config.path) (see authdeck(1)).\n")
            return
        }
        var table = TablePrinter("ID", "KIND", "ACCOUNTS", "FLOWS", "SILENT RENEWAL")
        for (row, profile) in zip(rows, config.providers) {
            guard row.problem == nil else {
                table.add([row.id, profile.kind.label, String(row.accounts), "—", "— (not ready)"])
                continue
            }
            table.add([row.id, profile.kind.label, String(row.accounts), row.flows.joined(separator: ","),
                       ProviderCapabilities.renewalUnavailableReason(profile) ?? "yes"])
        }
        context.output.prose(table.render())
        for row in rows {
            if let problem = row.problem {
                context.output.prose("\(row.id): not ready to sign in: \(problem) (edit \(config.path)); until then no flow can run and nothing renews\n")
            }
            if let registration = row.registration { context.output.raw("\(row.id): \(TerminalText.inert(registration))\n") }
            if let change = row.registration_change { context.output.raw("\(row.id): \(TerminalText.inert(change))\n") }
            if row.client == "unregistered", row.problem == nil {
                let check = row.discovery_unchecked.map { " if the issuer offers registration (not checked: \(TerminalText.inert($0)))" } ?? ""
                context.output.raw("\(row.id): no client_id: registers a client at its issuer on the first sign-in\(check)\n")
            }
        }
    }

    /// Seconds `providers` waits for a discovery document it has not cached: it answers a
    /// person at a prompt, and a slow issuer only leaves the check undone.
    static let discoveryTimeout = 5.0

    /// The adapter's own check of its settings, as a sign-in would meet it first.
    static func problem(_ built: Result<any ProviderAdapter, any Error>) -> String? {
        guard case .failure(let error) = built else { return nil }
        return (error as? AuthFailure)?.remedy ?? "\(error)"
    }
}

/// `authdeck providers unregister ID`: deletes a provider's dynamic client registration at the
/// issuer (RFC 7592) and then from the store.
///
/// Refused while the provider has accounts: their refresh tokens belong to that client and
/// would stop renewing; sign them out first (`logout --clear-registration` of the last one
/// unregisters too).
struct ProvidersUnregisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unregister", abstract: "Delete PROVIDER's dynamic client registration at the issuer and in the store.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The provider id.", completion: Completions.providers) var provider: String

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let config = try context.loadConfig()
        guard let profile = config.provider(provider) else { throw CLIError.unknownProvider(provider, in: config) }
        guard let store = try context.openStoreIfPresent() else { return context.output.raw("\(provider) holds no client registration.\n") }
        let adapters = context.adapterContext(store: store, config: config)
        guard let holder = try ProviderRegistry.adapter(for: profile, context: adapters, config: config.providers) as? ClientRegistrationHolder else {
            return context.output.raw("\(provider) holds no client registration (its client is configured).\n")
        }
        do {
            switch try await ClientUnregistration(store: store).run(holder, provider: provider) {
            case .keptFor(let accounts):
                throw CLIError.failure("\(provider) has \(accounts.count) account\(accounts.count == 1 ? "" : "s") (\(accounts.joined(separator: ", "))) "
                                       + "that renew through its client registration; sign them out first (`authdeck logout ACCOUNT --clear-registration` "
                                       + "of the last one also unregisters); nothing was deleted")
            case .nothingHeld: context.output.raw("\(provider) holds no client registration.\n")
            case .deleted(let gone):
                context.output.raw("Deleted \(provider)'s client registration at the issuer and in the store (it was \(TerminalText.inert(gone))).\n")
            }
        } catch let failure as AuthFailure {
            throw failure.naming(provider)
        }
    }
}
