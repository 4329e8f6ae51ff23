import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Oracle Access Management OAuth (11gR2 Mobile & Social, 12c/14c REST), kind `oam`.
///
/// Grants: resource owner password (OAM's usual mobile flow), client credentials (Basic),
/// authorization code through the loopback, and a JWT bearer user assertion from
/// `options.assertion_file`. Cached tokens are reused when their scopes cover the request
/// and refreshed when a refresh token exists (RenewalCoordinator). The
/// `oracle-idm:/oauth/grant-type/oam_credentials` grant is not offered: what it sends is not
/// documented in a source we could verify.
///
/// With `options.client_registration` the adapter is a mobile client (`OAMRegistrar`): each
/// grant is sent with the user's client assertion (`client_assertion` +
/// `client_assertion_type`), registering first when the user holds none; one the server
/// refuses (`invalid_client`, `unauthorized_client`) or that has lapsed is registered again
/// once, with the user's credentials (on a renewal, only the remembered ones).
public struct OAMAdapter: ProviderAdapter {
    public let profile: ProviderProfile
    let context: AdapterContext
    let settings: OAMSettings

    public init(profile: ProviderProfile, context: AdapterContext) throws {
        self.profile = profile
        self.context = context
        settings = try OAMSettings(profile, environment: context.environment)
    }

    /// The identity-domain header goes to OAM-protected resources too, as the OAM SDK's REST
    /// handler sends it.
    public var resourceHeaders: [ResourceHeader] {
        settings.identityHeader.map { [ResourceHeader($0.name, $0.value)] } ?? []
    }

    public var capabilities: ProviderCapabilities { .of(profile) }

    public var keepsRegistration: Bool { true }

    /// As the OAM SDK's logout: tokens and the stored password go; the username and
    /// preferences stay when the person chose to be remembered, and the registration handle
    /// (the client assertion) stays, unless `clearRegistration` (clearRegistrationHandles).
    public func keptAfterSignOut(_ stored: StoredAccount, clearRegistration: Bool) -> Credentials? {
        guard !clearRegistration else { return nil }
        var kept = stored.credentials.extras.filter { OAMRegistration.isPart($0.key) }
        if let remembered = stored.credentials.extras["oam.remember"], remembered.exposedValue != OAMCredentialOptions.Remembrance.none.rawValue {
            kept["oam.remember"] = remembered
        }
        return kept.isEmpty ? nil : Credentials(extras: kept)
    }

    /// A mobile client registers the user with a password when the flow does not carry one and
    /// the user holds no registration yet (the client-credentials and assertion flows).
    public func needsPassword(for flow: SignInFlow, username: String?) -> Bool {
        if flow == .password { return true }
        guard settings.registration, flow == .client || flow == .assertion else { return false }
        return held(flow: flow, username: username) == nil
    }

    var scopes: [String] { profile.scopes }

    var tokenEndpoint: TokenEndpoint { endpoint(nil) }

    /// The token endpoint with the client as configured, or authenticated by `registration`'s assertion.
    func endpoint(_ registration: OAMRegistration?) -> TokenEndpoint {
        let client = registration.map { OAuthClient(id: settings.client.id, authentication: .clientAssertion($0.assertion)) } ?? settings.client
        return TokenEndpoint(url: settings.token, client: client, http: context.http, extraHeaders: settings.identityHeader.map { [$0] } ?? [])
    }

    var registrar: OAMRegistrar { OAMRegistrar(settings: settings, context: context) }

    func request(_ grant: String, _ fields: [(String, String)], kind: TokenEndpoint.Grant, secrets: [String],
                 via endpoint: TokenEndpoint? = nil) async throws -> TokenSet {
        let scope = scopes.isEmpty ? [] : [("scope", scopes.joined(separator: " "))]
        return try await (endpoint ?? tokenEndpoint).request([("grant_type", settings.grant(grant))] + fields + scope, grant: kind, secrets: secrets,
                                                             now: context.clock.now())
    }

    /// Whether a failure says the server refused the client assertion itself (expired or
    /// revoked). OAM's exact answer is not in PROVIDERS.md: `invalid_client` (RFC 6749 §5.2) and
    /// `unauthorized_client` are both taken to mean it.
    static func refusesAssertion(_ failure: AuthFailure) -> Bool {
        ["invalid_client", "unauthorized_client"].contains(failure.oauthError ?? failure.code)
    }

    /// The registration the user already holds: the account this flow signs in again (the
    /// provider's client account, or the user's by username; with no username, the provider's
    /// only account that holds one). Quarantined accounts count: the registration is still theirs.
    func held(flow: SignInFlow, username: String?) -> OAMRegistration? {
        guard let accounts = try? context.accounts?.accounts(providerId: profile.id, subject: nil) else { return nil }
        let registered = accounts.compactMap { a in OAMRegistration(extras: a.credentials.extras).map { (a.account, $0) } }
        if flow == .client { return registered.first { $0.0.subject == clientSubject }?.1 }
        if let username { return registered.first { $0.0.username.lowercased() == username.lowercased() && $0.0.subject != clientSubject }?.1 }
        let users = registered.filter { $0.0.subject != clientSubject }
        return users.count == 1 ? users[0].1 : nil
    }

    var clientSubject: String { "client:\(settings.client.id)@\(host)" }

    /// Runs `grant` as a registered mobile client: with the registration held, else (or when the
    /// server refuses it, once) a new 2-legged one made with `username` and `password`.
    func registered(flow: SignInFlow, username: String?, password: Secret?,
                    _ grant: (TokenEndpoint) async throws -> TokenSet) async throws -> (TokenSet, OAMRegistration) {
        let existing = held(flow: flow, username: username)
        if let existing, !existing.hasLapsed(at: context.clock.now()) {
            do {
                return (try await grant(endpoint(existing)), existing)
            } catch let f as AuthFailure where Self.refusesAssertion(f) {}
        }
        guard let username, let password else {
            throw AuthFailure(.misconfigured, code: "no_credentials",
                              remedy: "provider \"\(profile.id)\" registers each user as a mobile client (options.client_registration), which needs --username and the password once")
        }
        let registration = try await registrar.register(username: username, password: password,
                                                        deviceId: existing?.deviceId ?? OAMRegistrar.newDeviceId())
        return (try await grant(endpoint(registration)), registration)
    }

    public func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
        if let service = restService { return try await restSignIn(service, flow: flow, presenter: presenter, options: options) }
        let tokens: TokenSet
        var username = options.username
        var registration: OAMRegistration?
        /// The grant as configured, or as a registered mobile client.
        func grant(_ run: @escaping (TokenEndpoint?) async throws -> TokenSet) async throws -> TokenSet {
            guard settings.registration else { return try await run(nil) }
            let (t, r) = try await registered(flow: flow, username: options.username, password: options.password) { try await run($0) }
            registration = r
            return t
        }
        switch flow {
        case .password:
            guard let user = options.username, let password = options.password else {
                throw AuthFailure(.misconfigured, code: "no_credentials", remedy: "OAM password sign-in needs --username and a password")
            }
            tokens = try await grant {
                try await request("password", [("username", user), ("password", password.exposedValue)], kind: .password,
                                  secrets: [password.exposedValue], via: $0)
            }
        case .client:
            tokens = try await grant { try await request("client_credentials", [], kind: .clientCredentials, secrets: [], via: $0) }
            var credentials = tokens.credentials(now: context.clock.now(), requestedScopes: scopes, idTokenClaims: [:])
            credentials.extras["grant"] = Secret("client_credentials")
            credentials.extras.merge(registration?.extras ?? [:]) { _, new in new }
            return SignInResult(subject: clientSubject, username: settings.client.id,
                                displayName: "client \(settings.client.id)", realm: nil, credentials: credentials)
        case .browser:
            if settings.registration {
                (tokens, registration) = try await browserRegistered(presenter: presenter, options: options)
            } else {
                let runner = FlowRunner(context: context, profileId: profile.id, token: tokenEndpoint, scopes: scopes)
                (tokens, _) = try await runner.browser(endpoint: settings.authorization, issuer: nil, issRequired: false, redirect: settings.redirect,
                                                       presenter: presenter, options: options)
            }
        case .assertion:
            guard let path = settings.assertionFile else {
                throw AuthFailure(.misconfigured, code: "no_assertion", remedy: "provider \"\(profile.id)\": set options.assertion_file")
            }
            let assertion = try SecretSource.file(path, what: "provider \"\(profile.id)\": assertion_file", environment: context.environment)
            tokens = try await grant {
                try await request("urn:ietf:params:oauth:grant-type:jwt-bearer", [("assertion", assertion.exposedValue)], kind: .jwtBearer,
                                  secrets: [assertion.exposedValue], via: $0)
            }
            username = username ?? (try? JWT(compact: assertion.exposedValue))?.claims.string("sub")
        default:
            throw AuthFailure(.misconfigured, code: AuthFailure.FlowNotOffered.unsupportedFlow, remedy: "OAM sign-in offers --password, --client, --browser and --assertion")
        }
        let who = await profileClaims(tokens.accessToken)
        guard let user = who["uid"] ?? who["sub"] ?? username else {
            throw AuthFailure(.misconfigured, code: "no_subject", remedy: "OAM did not say who signed in (no profile endpoint answer)")
        }
        var credentials = tokens.credentials(now: context.clock.now(), requestedScopes: scopes, idTokenClaims: who)
        credentials.extras.merge(registration?.extras ?? [:]) { _, new in new }
        return SignInResult(subject: "oam:\(user.lowercased())@\(host)", username: user, displayName: who["commonname"] ?? who["name"] ?? "",
                            realm: settings.identityHeader?.value, credentials: credentials)
    }

    /// The browser sign-in of a mobile client. With a registration held for the user (by
    /// `--username`, or the provider's only one) it is one authorization code round
    /// authenticated by its assertion. Otherwise the 3-legged registration first: the pre-authz
    /// code, the browser round carrying `oracle_pre_authz_code`, and the code exchanged with
    /// `oracle_requested_assertions` for the client assertion; then a second round for the
    /// tokens, as the OAM SDK does (the server's session normally lets the browser through at
    /// once). PROVIDERS.md names the registration fields but not where the browser round puts
    /// the pre-authz code: it goes on the authorize URL, and again with the code exchange.
    func browserRegistered(presenter: any SignInPresenter, options: SignInOptions) async throws -> (TokenSet, OAMRegistration) {
        func round(_ endpoint: TokenEndpoint, _ extra: [(String, String)] = []) async throws -> TokenSet {
            let runner = FlowRunner(context: context, profileId: profile.id, token: endpoint, scopes: scopes)
            return try await runner.browser(endpoint: settings.authorization, issuer: nil, issRequired: false, redirect: settings.redirect,
                                            extraParameters: extra, presenter: presenter, options: options).0
        }
        let existing = held(flow: .browser, username: options.username)
        if let existing, !existing.hasLapsed(at: context.clock.now()) {
            do {
                return (try await round(endpoint(existing)), existing)
            } catch let f as AuthFailure where Self.refusesAssertion(f) {
                await presenter.present(.notice("The OAM server no longer accepts this device's registration; registering again."))
            }
        }
        let deviceId = existing?.deviceId ?? OAMRegistrar.newDeviceId()
        let code = try await registrar.preAuthzCode(deviceId: deviceId)
        var exchange = registrar.endpoint
        exchange.extraFields = registrar.assertionFields(code: code, deviceId: deviceId)
        let registration = registrar.handle(try await round(exchange, [("oracle_pre_authz_code", code.exposedValue)]), deviceId: deviceId)
        await presenter.present(.notice("Registered with the OAM server; signing in with the new registration."))
        return (try await round(endpoint(registration)), registration)
    }

    var host: String { URL(string: settings.token)?.host ?? "oam" }

    /// The user profile (`uid`, `commonname`, `mail` on 11g; `sub`, `name` on 12c).
    func profileClaims(_ token: Secret) async -> [String: String] {
        guard let url = settings.profileURL else { return [:] }
        return await UserInfo.fetch(url, accessToken: token, http: context.http) ?? [:]
    }

    public func renew(_ stored: StoredAccount, scopes wanted: [String], hearing: RotationHearing?) async throws -> Credentials {
        if let service = restService { return try await restRenew(service, stored) }
        guard settings.registration else { return try await renew(stored, scopes: wanted, via: tokenEndpoint, hearing: hearing) }
        guard let held = OAMRegistration(extras: stored.credentials.extras) else {
            throw AuthFailure(.needsInteraction, code: "no_registration",
                              remedy: "it holds no client registration (provider \"\(profile.id)\" is a mobile client); sign in again: `authdeck login \(stored.account.providerId)`")
        }
        let why: String
        if held.hasLapsed(at: context.clock.now()) {
            why = "its client registration expired"
        } else {
            do {
                return try await renew(stored, scopes: wanted, via: endpoint(held), hearing: hearing)
            } catch let f as AuthFailure where Self.refusesAssertion(f) {
                why = "the OAM server refused its client registration (\(f.oauthError ?? f.code): the client assertion expired or was revoked)"
            }
        }
        // Registered again once, with the credentials the SDK would otherwise ask for: only
        // remembered ones, since no person is here.
        guard let password = rememberedPassword(stored) else {
            throw AuthFailure(.needsInteraction, code: "registration_refused",
                              remedy: "\(why), and registering again needs the password, which is not remembered; sign in again: `authdeck login \(stored.account.providerId)`")
        }
        let registration = try await registrar.register(username: stored.account.username, password: password, deviceId: held.deviceId)
        var renewed = try await renew(stored, scopes: wanted, via: endpoint(registration), hearing: hearing)
        renewed.extras.merge(registration.extras) { _, new in new }
        return renewed
    }

    /// The password the person chose to have remembered (auto-login or remembered credentials).
    func rememberedPassword(_ stored: StoredAccount) -> Secret? {
        let mode = stored.credentials.extras["oam.remember"]?.exposedValue
        guard mode == OAMCredentialOptions.Remembrance.autoLogin.rawValue || mode == OAMCredentialOptions.Remembrance.credentials.rawValue else { return nil }
        return stored.credentials.extras["oam.password"]
    }

    func renew(_ stored: StoredAccount, scopes wanted: [String], via tokenEndpoint: TokenEndpoint, hearing: RotationHearing?) async throws -> Credentials {
        let now = context.clock.now()
        let requested = wanted.isEmpty ? scopes : wanted
        let scope = requested.isEmpty ? [] : [("scope", requested.joined(separator: " "))]
        if stored.credentials.extras["grant"]?.exposedValue == "client_credentials" {
            let t = try await tokenEndpoint.request([("grant_type", settings.grant("client_credentials"))] + scope, grant: .clientCredentials,
                                                    secrets: [], home: stored.credentials.grantHome, now: now)
            return t.credentials(now: now, requestedScopes: requested, idTokenClaims: [:])
        }
        do {
            guard let refresh = stored.credentials.refreshToken else {
                throw AuthFailure(.needsInteraction, code: "no_refresh_token", remedy: "it holds no refresh token; sign in again: `authdeck login \(stored.account.providerId)`")
            }
            let t = try await tokenEndpoint.request([("grant_type", settings.grant("refresh_token")), ("refresh_token", refresh.value.exposedValue)] + scope,
                                                    grant: .refresh, secrets: [refresh.value.exposedValue], home: stored.credentials.grantHome,
                                                    hearing: hearing, now: now)
            return t.credentials(now: now, requestedScopes: requested, idTokenClaims: [:])
        } catch let f as AuthFailure where f.errorClass == .needsInteraction && !Self.refusesAssertion(f) {
            // Auto-login (the SDK's AutoLoginAllowed, chosen by the user): sign in again with
            // the stored password instead of asking.
            guard stored.credentials.extras["oam.remember"]?.exposedValue == OAMCredentialOptions.Remembrance.autoLogin.rawValue,
                  let password = stored.credentials.extras["oam.password"] else { throw f }
            let t = try await tokenEndpoint.request([("grant_type", settings.grant("password")), ("username", stored.account.username),
                                                     ("password", password.exposedValue)] + scope,
                                                    grant: .password, secrets: [password.exposedValue], now: now)
            return t.credentials(now: now, requestedScopes: requested, idTokenClaims: [:])
        }
    }

    /// Logout invalidates the server-side grant first (RFC 7009 shape), then local tokens.
    public func revoke(_ stored: StoredAccount) async throws {
        if let service = restService(for: stored) { return try await restLogout(service, stored, clearingRegistration: false) }
        guard let url = settings.revocation else { return }
        // A mobile client authenticates with the account's client assertion, as for its grants.
        let client = OAMRegistration(extras: stored.credentials.extras).map { OAuthClient(id: settings.client.id, authentication: .clientAssertion($0.assertion)) }
        let revocation = Revocation(endpoint: url, client: settings.registration ? client ?? settings.client : settings.client, http: context.http,
                                    extraHeaders: settings.identityHeader.map { [$0] } ?? [])
        if let refresh = stored.credentials.refreshToken {
            try await revocation.revoke(refresh.value, hint: "refresh_token", home: stored.credentials.grantHome, now: context.clock.now())
        }
    }
}
