import AuthDeckCore
import AuthDeckConfig
import AuthDeckProviders

/// Keeping an account signed in and bringing it back: renewing it ahead of expiry (the deck's
/// tick, `watch`), and re-signing it in — silently when its provider allows, else through the
/// flow a person can follow in the deck (its Enter and `a`).
public struct Reauthentication: Sendable {
    public enum Outcome: Sendable {
        case renewed(StoredAccount)
        /// Signed in interactively; the account may be another one than asked for (the person
        /// chose another user).
        case signedIn(StoredAccount)
    }

    let wiring: ProviderWiring
    let config: DeckConfig
    /// Every renewal, paced by its owner's `RenewalPacing` (the deck keeps one while open).
    public let renewal: Renewal

    public init(wiring: ProviderWiring, config: DeckConfig, pacing: RenewalPacing = RenewalPacing()) {
        self.wiring = wiring
        self.config = config
        renewal = Renewal(wiring: wiring, config: config, pacing: pacing)
    }

    /// Renews `id` so it outlives its provider's `renew_before`, unless it already does or
    /// the pacing holds it back. Throws a `Refusal` when the account or its provider is gone.
    public func renewAhead(_ id: String) async throws -> Renewal.Attempt {
        let stored = try account(id)
        return await renewal.attempt(stored.account, need: .ahead(scopes: []), adapter: try adapter(stored.account.providerId))
    }

    /// Renews `id` now; when only a person can help and `interactive`, signs it in with the
    /// deck's flow (`SignInFlowChoice.forDeck`), its prompts going to `presenter`.
    public func renewOrSignIn(_ id: String, interactive: Bool, presenter: any SignInPresenter) async throws -> Outcome {
        let stored = try account(id)
        let adapter = try adapter(stored.account.providerId)
        // Another tenant than the provider pins: renewing cannot mend it (and would spend the
        // refresh token), so a person signs in to the pinned tenant, as whoever they choose.
        if let refusal = TokenAccess.renewalCannotMendTenant(stored.account, config: config) {
            guard interactive else { throw refusal }
            return .signedIn(try await signIn(adapter, username: nil, presenter: presenter))
        }
        // Nothing to renew with (a sign-in that never completed, a signed-out account): a
        // person's sign-in at once, without a "renewal failed" first in its events.
        let renewable = stored.credentials.refreshToken != nil
            || ProviderCapabilities.renewsWithoutRefreshToken(adapter.profile, stored.credentials)
        if !(stored.account.lastError?.errorClass == .needsInteraction && interactive), renewable || !interactive {
            do {
                return .renewed(try await renewal.renew(stored.account, need: .force, adapter: adapter))
            } catch let f as AuthFailure where f.errorClass == .needsInteraction && interactive {
                // only a person can help: sign in
            }
        }
        return .signedIn(try await signIn(adapter, username: stored.account.username, presenter: presenter))
    }

    /// Signs a new account of `providerId` in with the deck's flow.
    public func add(_ providerId: String, presenter: any SignInPresenter) async throws -> StoredAccount {
        try await signIn(try adapter(providerId), username: nil, presenter: presenter)
    }

    func signIn(_ adapter: any ProviderAdapter, username: String?, presenter: any SignInPresenter) async throws -> StoredAccount {
        guard let flow = SignInFlowChoice.forDeck(adapter, username: username) else {
            throw AuthFailure(.misconfigured, code: "password_only", remedy: SignInFlowChoice.deckCannotSignIn(adapter.profile.id))
        }
        if BrowserSignIn.handles(flow, of: adapter) {
            return try await BrowserSignIn(wiring: wiring, config: config).run(adapter.profile, username: username, timeout: SignInOptions().timeout,
                                                                                presenter: presenter)
        }
        guard flow == .password, let username else {
            return try await SignInCoordinator(store: wiring.store, clock: wiring.clock)
                .signIn(with: adapter, flow: flow, presenter: presenter, options: SignInOptions(username: username))
        }
        // Asked by the presenter (a window of the deck); no answer is a cancelled sign-in. A
        // password the provider did not accept is asked for again, saying so, up to three times
        // in all (the provider's own lockout counts them too).
        var note: String?, attempt = 1
        while true {
            guard let password = await presenter.password(for: "\(adapter.profile.id)/\(username)", note: note), !password.isEmpty else {
                throw CancellationError()
            }
            do {
                return try await signIn(adapter, username: username, password: password, presenter: presenter)
            } catch let f as AuthFailure where f.oauthError == "invalid_grant" && attempt < 3 {
                (note, attempt) = (f.remedy, attempt + 1)
            }
        }
    }

    /// A password sign-in; an OAM account's follows OAM's rules, as `authdeck login --password`
    /// does: the person's choice to be remembered is kept (a plain sign-out then keeps the
    /// username, as the deck says). Past them, a deck sign-out after a deck sign-in cleared the
    /// registration.
    func signIn(_ adapter: any ProviderAdapter, username: String, password: Secret, presenter: any SignInPresenter) async throws -> StoredAccount {
        if let service = OAMLoginService(for: adapter, store: wiring.store, clock: wiring.clock) {
            switch try await service.signIn(mode: .online, username: username, password: password, usedStoredPassword: false,
                                            remember: nil, presenter: presenter) {
            case .online(let stored), .offline(let stored): return stored
            }
        }
        return try await SignInCoordinator(store: wiring.store, clock: wiring.clock)
            .signIn(with: adapter, flow: .password, presenter: presenter, options: SignInOptions(username: username, password: password))
    }

    /// The account; a `Refusal` when it is gone (removed meanwhile), which no sign-in can mend.
    func account(_ id: String) throws -> StoredAccount {
        guard let stored = try wiring.store.account(id: id) else { throw Refusal.failure("the account is gone") }
        return stored
    }

    /// The provider's adapter; a `Refusal` when the provider left the config, which no sign-in can mend.
    func adapter(_ providerId: String) throws -> any ProviderAdapter {
        guard config.provider(providerId) != nil else { throw Refusal.failure(ProviderWiring.unknownProvider(providerId, in: config)) }
        return try wiring.adapter(forProvider: providerId, config: config)
    }
}
