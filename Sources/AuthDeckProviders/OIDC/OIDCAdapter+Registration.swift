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
    /// provider has neither a `client_id` nor a stored registration for this issuer.
    func client(for meta: ProviderMetadata, flow: SignInFlow, presenter: any SignInPresenter)
        async throws -> (OAuthClient, AuthorizationCodeFlow.Redirect) {
        if let configured = settings.client { return (configured, settings.redirect) }
        guard flow != .client else {
            throw AuthFailure(.misconfigured, code: "config",
                              remedy: "provider \"\(profile.id)\": the client flow signs in as a client, which needs its client_id (and secret) in config.toml")
        }
        let stored: StoredRegistration
        if let existing = try storedRegistration(meta) {
            stored = existing
        } else {
            stored = try await register(at: meta, presenter: presenter)
        }
        let registered = stored.registered
        if let grant = Self.grant(for: flow), !registered.grantTypes.contains(where: { Self.sameGrant($0, grant) }) {
            throw AuthFailure(.misconfigured, code: "grant_not_registered",
                              remedy: "the client registered at \(meta.issuer) cannot use the \(flow.rawValue) flow (the server did not register "
                                  + "that grant); sign in with another flow: \(Self.flows(in: registered.grantTypes).map { "--\($0)" }.joined(separator: ", "))")
        }
        var redirect = settings.redirect
        if let uri = registered.redirectURI, let url = URL(string: uri), let port = url.port { redirect.port = UInt16(port) }
        return (registered.client, redirect)
    }

    /// The stored registration when it was made at this issuer.
    func storedRegistration(_ meta: ProviderMetadata) throws -> StoredRegistration? {
        guard let store = context.providerSecrets, let stored = try StoredRegistration.load(profile.id, from: store),
              stored.issuer == meta.issuer else { return nil }
        return stored
    }

    /// Registers a client for the flows this provider can use, stores it, and says which flows
    /// the server would not register.
    func register(at meta: ProviderMetadata, presenter: any SignInPresenter) async throws -> StoredRegistration {
        guard let endpoint = meta.registrationEndpoint else {
            throw AuthFailure(.misconfigured, code: "needs_client_id",
                              remedy: "this issuer needs a client_id: \(meta.issuer.isEmpty ? "provider \"\(profile.id)\"" : meta.issuer) offers no "
                                  + "registration_endpoint for authdeck to register itself; ask its administrator for a client and set client_id "
                                  + "(and client_secret_env) for provider \"\(profile.id)\"")
        }
        // Its answer is a client secret: https, or http only on this machine.
        if let problem = WebLink.problemOpening(endpoint, field: "the registration_endpoint") {
            throw AuthFailure(.misconfigured, code: "unsafe_url", remedy: "\(problem); nothing was registered")
        }
        guard let store = context.providerSecrets else {
            throw AuthFailure(.misconfigured, code: "no_store", remedy: "a dynamic client registration needs the store to keep it")
        }
        var grants = ["authorization_code", "refresh_token"]
        if meta.deviceAuthorizationEndpoint != nil { grants.append(ClientRegistration.deviceGrant) }
        if settings.allowPassword { grants.append("password") }
        // The loopback redirect is registered exactly, so an ephemeral port is chosen now and
        // kept with the registration for every later browser sign-in.
        var port = settings.redirect.port
        if port == 0 { port = (try? LoopbackListener(port: 0, path: settings.redirect.path))?.port ?? 8400 }
        let redirectURI = "http://\(settings.redirect.host):\(port)\(settings.redirect.path)"
        let (registered, refused) = try await ClientRegistration(endpoint: endpoint, http: context.http)
            .register(grantTypes: grants, redirectURI: redirectURI, scope: scopes.joined(separator: " "))
        // Two first sign-ins at once (two terminals) each register: the one stored first wins,
        // and the other's client is deleted at the issuer rather than orphaned there.
        if let earlier = try storedRegistration(meta) {
            try? await ClientRegistration(endpoint: endpoint, http: context.http).delete(registered, home: registrationHome(issuer: meta.issuer))
            return earlier
        }
        let stored = StoredRegistration(registered: registered, issuer: meta.issuer, registeredAt: context.clock.now())
        try stored.save(profile.id, to: store)
        if !refused.isEmpty {
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
