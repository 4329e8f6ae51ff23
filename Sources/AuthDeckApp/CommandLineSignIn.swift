import AuthDeckCore
import AuthDeckConfig
import AuthDeckProviders

/// Signing in where a password can be asked for (`authdeck login`, the demo's seeding): the
/// flow chosen from what was asked and what the provider offers and, for a provider with
/// credential rules of its own (OAM: remembered passwords, offline verification, lockout),
/// those rules.
public struct CommandLineSignIn {
    public struct Request: Sendable {
        public var flow: SignInFlow?
        public var username: String?
        public var openBrowser: Bool
        public var timeout: TimeSpan
        /// OAM: the server, the offline verifier, or the server falling back to it (nil: not asked).
        public var connectivity: OAMLoginService.Mode?
        /// OAM: what to keep (nil: the account's or the provider's default).
        public var remember: OAMCredentialOptions.Remembrance?
        /// The person gave a password (a file or the environment): it is sent, not a stored one.
        public var passwordGiven: Bool
        /// A browser window's sign-in (`BrowserSignIn`) is cancelled by Ctrl-C, SIGTERM and
        /// SIGHUP, so its profile is deleted before the process ends (the command line's).
        public var stopOnSignals = false

        public init(flow: SignInFlow?, username: String?, openBrowser: Bool = true, timeout: TimeSpan = .minutes(10),
                    connectivity: OAMLoginService.Mode? = nil, remember: OAMCredentialOptions.Remembrance? = nil, passwordGiven: Bool) {
            self.flow = flow
            self.username = username
            self.openBrowser = openBrowser
            self.timeout = timeout
            self.connectivity = connectivity
            self.remember = remember
            self.passwordGiven = passwordGiven
        }
    }

    public enum Outcome: Sendable {
        /// Signed in with the provider's flow.
        case signedIn(StoredAccount)
        /// Signed in at the server under the provider's credential rules.
        case signedInByRules(StoredAccount)
        /// The password was checked against the stored verifier; the cached tokens stand.
        case verifiedOffline(StoredAccount)

        public var stored: StoredAccount {
            switch self {
            case .signedIn(let s), .signedInByRules(let s), .verifiedOffline(let s): return s
            }
        }
    }

    let wiring: ProviderWiring
    let config: DeckConfig

    public init(wiring: ProviderWiring, config: DeckConfig) {
        self.wiring = wiring
        self.config = config
    }

    /// Signs an account of `providerId` in. `password` is asked (with the username it is for)
    /// only when the flow needs one and none is stored; `note` says what the person should know
    /// (a stored password used).
    public func run(_ providerId: String, _ request: Request, presenter: any SignInPresenter,
                    password: (String) throws -> Secret, note: (String) -> Void) async throws -> Outcome {
        let adapter = try wiring.adapter(forProvider: providerId, config: config)
        let offered = adapter.capabilities.flows
        let chosen = SignInFlowChoice.forCommandLine(request.flow, adapter: adapter)
        guard offered.contains(chosen) || chosen == .assertion else {
            throw Refusal.usage("provider \"\(TerminalText.inert(providerId))\" does not offer --\(chosen.rawValue) (it offers: \(offered.map { "--\($0.rawValue)" }.joined(separator: ", ")))")
        }
        if BrowserSignIn.handles(chosen, of: adapter) {
            return .signedIn(try await BrowserSignIn(wiring: wiring, config: config).run(
                adapter.profile, username: request.username, timeout: request.timeout, presenter: presenter, stopOnSignals: request.stopOnSignals))
        }
        if let service = OAMLoginService(for: adapter, store: wiring.store, clock: wiring.clock),
           chosen == .password || request.connectivity != nil {
            return try await byRules(service, providerId, request, presenter: presenter, password: password, note: note)
        }
        if request.connectivity != nil || request.remember != nil {
            throw Refusal.usage("--offline, --auto and --remember are for OAM providers")
        }
        var options = SignInOptions(username: request.username, openBrowser: request.openBrowser, timeout: request.timeout)
        if adapter.needsPassword(for: chosen, username: request.username) {
            guard let username = request.username else {
                throw Refusal.usage(chosen == .password ? "--password needs --username"
                                        : "--\(chosen.rawValue) needs --username: provider \"\(TerminalText.inert(providerId))\" registers each user first")
            }
            options.password = try password(username)
        }
        return .signedIn(try await SignInCoordinator(store: wiring.store, clock: wiring.clock)
            .signIn(with: adapter, flow: chosen, presenter: presenter, options: options))
    }

    /// OAM's password sign-in with the SDK's rules (`OAMLoginService`).
    func byRules(_ service: OAMLoginService, _ providerId: String, _ request: Request, presenter: any SignInPresenter,
                 password: (String) throws -> Secret, note: (String) -> Void) async throws -> Outcome {
        let existing = try service.existing(username: request.username)
        guard let user = request.username ?? existing?.account.username else {
            throw Refusal.usage("--username is needed (no remembered username for \(providerId))")
        }
        let mode = request.connectivity ?? .online
        // A remembrance the provider forbids is refused before anything is read or said.
        _ = try service.remembrance(requested: request.remember, existing: existing)
        // A password the person gives is the one sent; the stored one stands in only when none is given.
        var secret = mode == .offline || request.passwordGiven ? nil : service.storedPassword(existing)
        let usedStored = secret != nil
        if usedStored { note("Using the stored credentials of \(TerminalText.inert(user)).") }
        if secret == nil { secret = try password(user) }
        switch try await service.signIn(mode: mode, username: user, password: secret!, usedStoredPassword: usedStored,
                                        remember: request.remember, presenter: presenter) {
        case .online(let stored): return .signedInByRules(stored)
        case .offline(let stored): return .verifiedOffline(stored)
        }
    }
}
