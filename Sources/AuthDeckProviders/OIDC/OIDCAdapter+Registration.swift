import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Sign-in with only an issuer URL: an `oidc` provider without `client_id` registers a client
/// at the issuer's `registration_endpoint` (RFC 7591) the first time a sign-in needs one, keeps
/// it sealed in the store (`StoredRegistration`) for every later sign-in, renewal and
/// revocation, and deletes it at the server (RFC 7592) when asked (`unregister`).
extension OIDCAdapter: ClientRegistrationHolder {
    /// The client a renewal or revocation uses: the configured one, else the stored
    /// registration. Never registers: a renewal must not create clients at the issuer.
    func client(for meta: ProviderMetadata) async throws -> OAuthClient {
        if let configured = settings.client { return configured }
        guard let stored = try storedRegistration(meta) else {
            throw AuthFailure(.needsInteraction, code: "not_registered",
                              remedy: "provider \"\(profile.id)\" holds no client registration at \(meta.issuer) any more; "
                                  + "sign in again to register one: `authdeck login \(profile.id)`")
        }
        return stored.registered.client
    }

    /// The client and redirect a sign-in with `flow` uses, registering one first when the
    /// provider has neither a `client_id` nor a stored registration for this issuer, and
    /// bringing a stored registration's grants in line with what config now asks for
    /// (`reconcile`) before they are checked.
    func client(for meta: ProviderMetadata, flow: SignInFlow, presenter: any SignInPresenter)
        async throws -> (OAuthClient, AuthorizationCodeFlow.Redirect) {
        if let configured = settings.client { return (configured, settings.redirect) }
        guard flow != .client else {
            throw AuthFailure(.misconfigured, code: "config",
                              remedy: "provider \"\(profile.id)\": the client flow signs in as a client, which needs its client_id (and secret) in config.toml")
        }
        let wanted = wantedGrants(meta)
        let stored: StoredRegistration
        if let existing = try storedRegistration(meta) {
            stored = Set(existing.requested) == Set(wanted)
                ? existing : try await reconcile(existing, wanted: wanted, meta: meta, flow: flow, presenter: presenter)
        } else {
            stored = try await register(at: meta, grants: wanted, presenter: presenter)
        }
        let registered = stored.registered
        if let grant = Self.grant(for: flow), !registered.grantTypes.contains(where: { Self.sameGrant($0, grant) }) {
            throw AuthFailure(.misconfigured, code: AuthFailure.FlowNotOffered.grantNotRegistered,
                              remedy: "the client registered at \(meta.issuer) cannot use the \(flow.rawValue) flow (the server did not register "
                                  + "that grant when authdeck asked for it); sign in with another flow: "
                                  + Self.flows(in: registered.grantTypes).map { "--\($0)" }.joined(separator: ", "))
        }
        var redirect = settings.redirect
        if let uri = registered.redirectURI, let url = URL(string: uri), let port = url.port { redirect.port = UInt16(port) }
        return (registered.client, redirect)
    }

    /// The grant types (standard names) this provider's config asks a registration for.
    func wantedGrants(_ meta: ProviderMetadata) -> [String] {
        var grants = ["authorization_code", "refresh_token"]
        if meta.deviceAuthorizationEndpoint != nil { grants.append(ClientRegistration.deviceGrant) }
        if settings.allowPassword { grants.append("password") }
        return grants
    }

    /// A stored registration made for other grants than config asks for now (say
    /// `allow_password = true` added after the first sign-in): updated in place at the server
    /// (RFC 7592), so the client and its accounts' refresh tokens stay; where the server cannot
    /// update and this sign-in needs a grant the client lacks, registered anew and the old
    /// client deleted. Either way the person is told which.
    func reconcile(_ existing: StoredRegistration, wanted: [String], meta: ProviderMetadata, flow: SignInFlow,
                   presenter: any SignInPresenter) async throws -> StoredRegistration {
        guard let store = context.providerSecrets else { return existing }
        let added = wanted.filter { !existing.requested.contains($0) }, dropped = existing.requested.filter { !wanted.contains($0) }
        let change = ([added.isEmpty ? nil : "with \(Self.grantNames(added))", dropped.isEmpty ? nil : "without \(Self.grantNames(dropped))"])
            .compactMap { $0 }.joined(separator: " and ")
        let needed = Self.grant(for: flow)
        let hasNeeded = needed.map { grant in existing.registered.grantTypes.contains { Self.sameGrant($0, grant) } } ?? true
        let management = ClientRegistration(endpoint: existing.registered.clientURI ?? "", http: context.http)
        let answer: (ClientRegistration.Registered, refused: [String])?
        do {
            answer = try await management.update(existing.registered, grantTypes: wanted, scope: scopes.joined(separator: " "),
                                                 home: registrationHome(issuer: existing.issuer))
        } catch let failure as AuthFailure where hasNeeded {
            // This sign-in does not need the change: it goes on, and a later one tries again.
            await presenter.present(.notice("authdeck's client registration at \(existing.issuer) was not updated (\(change) as config.toml asks): "
                                            + "\(failure.remedy); signing in with it as it is."))
            return existing
        }
        if let (updated, refused) = answer {
            let next = StoredRegistration(registered: updated, issuer: existing.issuer, registeredAt: existing.registeredAt, requested: wanted)
            try next.save(profile.id, to: store)
            let left = refused.isEmpty ? "" : " (the server refused \(Self.grantNames(refused)))"
            await presenter.present(.notice("Updated authdeck's client registration at \(existing.issuer) \(change), as config.toml asks\(left); "
                                            + "flows now: \(Self.flows(in: updated.grantTypes).joined(separator: ", "))."))
            return next
        }
        // The server cannot update (no RFC 7592 management). Registering anew replaces the
        // client every account of this provider renews with, so only a sign-in that cannot
        // go on without the missing grant does it.
        guard !hasNeeded else {
            await presenter.present(.notice("\(existing.issuer) cannot update authdeck's client registration (\(change) as config.toml asks), "
                                            + "so it stays as registered; flows: \(Self.flows(in: existing.registered.grantTypes).joined(separator: ", "))."))
            return existing
        }
        let fresh = try await register(at: meta, grants: wanted, presenter: presenter, replacing: existing)
        let oldId = existing.registered.clientId
        var gone = "the old client \(oldId) is left at the issuer (authdeck holds no way to delete it there)"
        if existing.registered.clientURI != nil, existing.registered.accessToken != nil {
            do {
                try await management.delete(existing.registered, home: registrationHome(issuer: existing.issuer))
                gone = "deleted the old client \(oldId)"
            } catch let failure as AuthFailure {
                gone = "the old client \(oldId) could not be deleted at the issuer (\(failure.remedy))"
            }
        }
        await presenter.present(.notice("\(existing.issuer) cannot update authdeck's client registration, so authdeck registered anew "
                                        + "(client \(fresh.registered.clientId), \(change)) and \(gone); "
                                        + "accounts signed in through the old client sign in again."))
        return fresh
    }

    /// Grant types as a person reads them ("the password grant", "the device grant").
    static func grantNames(_ grants: [String]) -> String {
        let names = grants.map { $0 == ClientRegistration.deviceGrant ? "device" : $0 }
        return "the \(names.joined(separator: ", ")) grant\(names.count == 1 ? "" : "s")"
    }

    /// The stored registration when it was made at this issuer.
    func storedRegistration(_ meta: ProviderMetadata) throws -> StoredRegistration? {
        guard let store = context.providerSecrets, let stored = try StoredRegistration.load(profile.id, from: store),
              stored.issuer == meta.issuer else { return nil }
        return stored
    }

    /// Registers a client for `grants` (the flows this provider can use), stores it, and says
    /// which flows the server would not register. With `replacing`, the new client takes that
    /// registration's place; the caller deletes the old one and says so.
    func register(at meta: ProviderMetadata, grants: [String], presenter: any SignInPresenter,
                  replacing old: StoredRegistration? = nil) async throws -> StoredRegistration {
        guard let endpoint = meta.registrationEndpoint else { throw Self.needsClientId(meta, provider: profile.id) }
        // Its answer is a client secret: https, or http only on this machine.
        if let problem = WebLink.problemOpening(endpoint, field: "the registration_endpoint") {
            throw AuthFailure(.misconfigured, code: "unsafe_url", remedy: "\(problem); nothing was registered")
        }
        guard let store = context.providerSecrets else {
            throw AuthFailure(.misconfigured, code: "no_store", remedy: "a dynamic client registration needs the store to keep it")
        }
        // The loopback redirect is registered exactly, so an ephemeral port is chosen now and
        // kept with the registration for every later browser sign-in.
        var port = settings.redirect.port
        if port == 0 { port = (try? LoopbackListener(port: 0, path: settings.redirect.path))?.port ?? 8400 }
        let redirectURI = old?.registered.redirectURI ?? "http://\(settings.redirect.host):\(port)\(settings.redirect.path)"
        let (registered, refused) = try await ClientRegistration(endpoint: endpoint, http: context.http)
            .register(grantTypes: grants, redirectURI: redirectURI, scope: scopes.joined(separator: " "))
        // Two first sign-ins at once (two terminals) each register: the one stored first wins,
        // and the other's client is deleted at the issuer rather than orphaned there.
        if let earlier = try storedRegistration(meta), earlier.registered.clientId != old?.registered.clientId {
            try? await ClientRegistration(endpoint: endpoint, http: context.http).delete(registered, home: registrationHome(issuer: meta.issuer))
            return earlier
        }
        let stored = StoredRegistration(registered: registered, issuer: meta.issuer, registeredAt: context.clock.now(), requested: grants)
        try stored.save(profile.id, to: store)
        if old != nil {
            // The caller deletes the old client and says what became of it.
        } else if !refused.isEmpty {
            await presenter.present(.notice("Registered authdeck at \(meta.issuer) without \(refused.joined(separator: ", ")) (the server refused "
                                            + "\(refused.count == 1 ? "it" : "them")); flows left: \(Self.flows(in: registered.grantTypes).joined(separator: ", "))."))
        } else {
            await presenter.present(.notice("Registered authdeck as a client at \(meta.issuer)."))
        }
        return stored
    }

    public func registrationSummary() throws -> String? {
        if settings.client != nil { return nil }
        guard let store = context.providerSecrets else { return nil }
        return try StoredRegistration.load(profile.id, from: store)?.summary
    }

    public func registeredFlows() throws -> [SignInFlow]? {
        guard settings.client == nil else { return nil }
        let offered = capabilities.flows.filter { $0 != .password || settings.allowPassword }
        guard let store = context.providerSecrets, let stored = try StoredRegistration.load(profile.id, from: store) else { return offered }
        let registered = Self.flows(in: stored.registered.grantTypes)
        return offered.filter { registered.contains($0.rawValue) }
    }

    public func pendingRegistrationChange() throws -> String? {
        guard settings.client == nil, let store = context.providerSecrets,
              let stored = try StoredRegistration.load(profile.id, from: store),
              stored.requested.contains("password") != settings.allowPassword else { return nil }
        return "config.toml asks for the registration \(settings.allowPassword ? "with" : "without") the password grant: the next sign-in "
            + "updates it at \(stored.issuer) (or registers anew where the server cannot update)"
    }

    public func registrationOutlook(timeout: Double) async -> RegistrationOutlook {
        guard settings.client == nil else { return .held }
        if let store = context.providerSecrets, (try? StoredRegistration.load(profile.id, from: store)) != nil { return .held }
        do {
            let meta = try await resolver.metadata(for: profile, timeout: timeout)
            guard meta.registrationEndpoint != nil else { return .needsClientId(Self.needsClientId(meta, provider: profile.id).remedy) }
            return .registers
        } catch let failure as AuthFailure {
            return .unchecked(failure.remedy)
        } catch {
            return .unchecked("\(error)")
        }
    }

    /// What a provider without a client_id at an issuer that offers no registration says.
    static func needsClientId(_ meta: ProviderMetadata, provider: String) -> AuthFailure {
        AuthFailure(.misconfigured, code: "needs_client_id",
                    remedy: "this issuer needs a client_id: \(meta.issuer.isEmpty ? "provider \"\(provider)\"" : meta.issuer) offers no "
                        + "registration_endpoint for authdeck to register itself; ask its administrator for a client and set client_id "
                        + "(and client_secret_env) for provider \"\(provider)\"")
    }

    public func unregister() async throws -> String? {
        guard settings.client == nil, let store = context.providerSecrets,
              let stored = try StoredRegistration.load(profile.id, from: store) else { return nil }
        try await ClientRegistration(endpoint: stored.registered.clientURI ?? "", http: context.http)
            .delete(stored.registered, home: registrationHome(issuer: stored.issuer))
        try StoredRegistration.forget(profile.id, in: store)
        return stored.summary
    }

    /// Where a registration access token may go: the issuer's origin and the hosts config names
    /// in `options.registration_host` (comma-separated; https).
    func registrationHome(issuer: String) -> GrantHome {
        let named = (profile.options["registration_host"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { $0.contains("://") ? $0 : "https://" + $0 }
        return GrantHome(issuer: issuer, origins: ([issuer] + named).compactMap(GrantHome.origin(of:)))
    }

    /// The grant a flow needs from the registration (nil: none of its own).
    static func grant(for flow: SignInFlow) -> String? {
        switch flow {
        case .browser: return "authorization_code"
        case .device: return ClientRegistration.deviceGrant
        case .password: return "password"
        default: return nil
        }
    }

    /// Whether a registered grant name is `standard` (glewlwyd says `device_authorization`).
    static func sameGrant(_ registered: String, _ standard: String) -> Bool {
        registered == standard || (standard == ClientRegistration.deviceGrant && registered == "device_authorization")
    }

    /// The sign-in flows a registration's grants allow.
    static func flows(in grants: [String]) -> [String] {
        [SignInFlow.device, .browser, .password].filter { flow in
            grants.contains { sameGrant($0, grant(for: flow)!) }
        }.map(\.rawValue)
    }
}
