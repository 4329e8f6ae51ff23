import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Any OpenID Connect / OAuth 2.0 provider, configured by issuer URL and client id.
///
/// Flows: device, browser (code + PKCE), client credentials, password (only with
/// `options.allow_password = true`), JWT bearer assertion. Accounts are keyed by
/// `iss` + `sub` from a validated id_token (or userinfo); client-credential accounts by the
/// client id, and they renew by asking again.
public struct OIDCAdapter: ProviderAdapter {
    public let profile: ProviderProfile
    let context: AdapterContext
    let settings: OIDCSettings
    let resolver: MetadataResolver

    public init(profile: ProviderProfile, context: AdapterContext) throws {
        self.profile = profile
        self.context = context
        self.settings = try OIDCSettings(profile, environment: context.environment)
        self.resolver = MetadataResolver(context: context)
    }

    public var capabilities: ProviderCapabilities { ProviderCapabilities.of(profile) }

    var scopes: [String] { profile.scopes.isEmpty ? ["openid"] : profile.scopes }

    func tokenEndpoint(_ meta: ProviderMetadata, _ client: OAuthClient) -> TokenEndpoint {
        TokenEndpoint(url: meta.tokenEndpoint, client: client, http: context.http, issuer: meta.issuer.isEmpty ? nil : meta.issuer)
    }

    public func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
        // Before any registration: a client must not be registered for a flow config forbids.
        if flow == .password, !settings.allowPassword { throw FlowRunner.passwordDisabled(profileId: profile.id) }
        let meta = try await resolver.metadata(for: profile)
        // Before registering a client or asking anyone: an id_token that cannot be checked
        // would waste the approval and leave the issued grant live at the server.
        if flow != .client, scopes.contains("openid") { try await checkIDTokensVerifiable(meta) }
        let (client, redirect) = try await self.client(for: meta, flow: flow, presenter: presenter)
        let token = tokenEndpoint(meta, client)
        let now = { context.clock.now() }
        var nonce: String?
        let tokens: TokenSet
        let runner = FlowRunner(context: context, profileId: profile.id, token: token, scopes: scopes)
        switch flow {
        case .device:
            tokens = try await runner.device(endpoint: meta.deviceAuthorizationEndpoint, presenter: presenter, options: options)
        case .browser:
            (tokens, nonce) = try await runner.browser(endpoint: meta.authorizationEndpoint, issuer: meta.issuer.isEmpty ? nil : meta.issuer,
                                                       issRequired: meta.issParameterSupported, redirect: redirect,
                                                       presenter: presenter, options: options)
        case .client:
            tokens = try await runner.client(scopes: scopes)
            var credentials = tokens.credentials(now: now(), requestedScopes: scopes, idTokenClaims: [:])
            credentials.extras["grant"] = Secret("client_credentials")
            return SignInResult(subject: "client:" + client.id, username: client.id,
                                displayName: "client \(client.id)", realm: nil, credentials: credentials)
        case .password:
            tokens = try await runner.password(allowed: settings.allowPassword, options: options)
        case .assertion:
            guard let path = settings.assertionFile else {
                throw AuthFailure(.misconfigured, code: "no_assertion", remedy: "provider \"\(profile.id)\": set options.assertion_file")
            }
            let assertion = try SecretSource.file(path, what: "provider \"\(profile.id)\": assertion_file", environment: context.environment)
            tokens = try await token.request([("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                                              ("assertion", assertion.exposedValue), ("scope", scopes.joined(separator: " "))],
                                             grant: .jwtBearer, secrets: [assertion.exposedValue], now: now())
        case .import:
            throw AuthFailure(.misconfigured, code: AuthFailure.FlowNotOffered.unsupportedFlow, remedy: "OIDC accounts cannot be imported; sign in instead")
        }
        let result: SignInResult
        do {
            result = try await identify(tokens, meta: meta, client: client, nonce: nonce)
        } catch let failure as AuthFailure {
            throw await withdrawn(tokens, meta: meta, client: client, after: failure)
        }
        if result.username == Self.subjectOf(result) {
            await presenter.present(.notice(Self.subjectOnlyNote(profileId: profile.id, requested: scopes, granted: tokens.scope)))
        }
        return result
    }

    /// The `sub` part of an OIDC subject (`issuer|sub`).
    static func subjectOf(_ result: SignInResult) -> String {
        result.subject.lastIndex(of: "|").map { String(result.subject[result.subject.index(after: $0)...]) } ?? result.subject
    }

    /// Why an account is named by its opaque `sub`: the issuer sent none of the readable
    /// claims, and which of the scopes that carry them (`profile`, `email`) it did not grant.
    /// Why said at sign-in: "Signed in as tpXKSfHeqjl8pe0dftBrS5wiHxs3A3Dg" alone reads as a
    /// fault, and the fix (an issuer's scope settings, or the config's scopes) is elsewhere.
    static func subjectOnlyNote(profileId: String, requested: [String], granted: [String]?) -> String {
        let named = readableNameClaims.filter { $0 != "username" }.joined(separator: ", ")
        var text = "\(profileId): the issuer gave no readable name (\(named)) in the id_token or userinfo, so the account is named by its opaque sub"
        let carriers = requested.filter { ["profile", "email"].contains($0) }
        if carriers.isEmpty {
            text += "; add \"profile\" and \"email\" to the provider's scopes to ask for one"
        } else if let granted {
            let missing = carriers.filter { !granted.contains($0) }
            text += missing.isEmpty
                ? "; the scopes \(carriers.joined(separator: ", ")) were granted, yet no name came with them (the issuer's claim settings)"
                : "; asked for but not granted: \(missing.joined(separator: ", ")) (granted: \(granted.joined(separator: " ")); the issuer's scope settings decide)"
        } else {
            text += "; the token answer named no granted scopes, so \(carriers.joined(separator: ", ")) count as granted, yet no name came with them"
        }
        return TerminalText.inert(text)
    }

    /// Says before anyone is asked whether this issuer's id_tokens could be checked: one that
    /// signs only with a shared secret while the client (configured, or to be registered) has
    /// none, or whose advertised public keys cannot be read. Throws what `login` then says.
    func checkIDTokensVerifiable(_ meta: ProviderMetadata) async throws {
        let willHaveSecret = settings.client.map { $0.secret != nil } ?? true  // a registration asks for client_secret_basic
        if let problem = meta.idTokenVerificationProblem(clientHasSecret: willHaveSecret) {
            throw AuthFailure(.misconfigured, code: "unverifiable_id_token", remedy: problem + "; nothing was asked of you")
        }
        let asymmetric = meta.idTokenSigningAlgs.map { $0.contains { JWKSet.asymmetric.contains($0) } } ?? true
        guard asymmetric, meta.jwksURI != nil else { return }
        do {
            _ = try await resolver.keys(meta.jwksURI, refresh: false)
        } catch let failure as AuthFailure where failure.code == "bad_jwks" {
            throw AuthFailure(failure.errorClass, code: failure.code,
                              remedy: failure.remedy + ", so the id_token of a sign-in could not be checked; nothing was asked of you")
        }
    }

    /// The failure of a sign-in whose tokens were issued but not accepted (an id_token refused):
    /// the grant they carry is revoked at the issuer where it can be, so nothing stays live
    /// that no one holds; the failure says whether it was.
    func withdrawn(_ tokens: TokenSet, meta: ProviderMetadata, client: OAuthClient, after failure: AuthFailure) async -> AuthFailure {
        func adding(_ what: String) -> AuthFailure {
            var said = failure
            said.remedy += "; " + what
            return said
        }
        guard let refresh = tokens.refreshToken else { return failure }
        guard let endpoint = meta.revocationEndpoint else {
            return adding("the refresh token the issuer issued could not be revoked (it names no revocation endpoint)")
        }
        let revocation = Revocation(endpoint: endpoint, client: client, http: context.http, issuer: meta.issuer.isEmpty ? nil : meta.issuer)
        do {
            try await revocation.revoke(refresh, hint: "refresh_token", home: tokens.home, now: context.clock.now())
            return adding("the refresh token it issued was revoked at the issuer")
        } catch {
            return adding("the refresh token it issued could not be revoked (\(error))")
        }
    }

    /// Validates the id_token (when there is one) and works out who signed in.
    func identify(_ tokens: TokenSet, meta: ProviderMetadata, client: OAuthClient, nonce: String?) async throws -> SignInResult {
        let now = context.clock.now()
        var claims: [String: String] = [:]
        if let idToken = tokens.idToken {
            claims = try await validate(idToken, meta: meta, client: client, nonce: nonce)
        }
        if claims["preferred_username"] == nil && claims["email"] == nil || claims["sub"] == nil,
           let endpoint = meta.userinfoEndpoint,
           let info = await UserInfo.fetch(endpoint, accessToken: tokens.accessToken, http: context.http) {
            // Userinfo must describe the same user as the id_token (OIDC Core §5.3.2).
            if claims["sub"] == nil || info["sub"] == claims["sub"] {
                claims.merge(info) { old, _ in old }
            }
        }
        guard let sub = claims["sub"] else {
            throw AuthFailure(.misconfigured, code: "no_subject",
                              remedy: "provider \"\(profile.id)\" said nothing about who signed in (no id_token or userinfo); add \"openid\" to scopes")
        }
        let issuer = claims["iss"] ?? meta.issuer
        let credentials = tokens.credentials(now: now, requestedScopes: scopes, idTokenClaims: claims)
        return SignInResult(subject: issuer + "|" + sub, username: Self.username(claims, subject: sub),
                            displayName: claims["name"] ?? "", realm: nil, credentials: credentials)
    }

    /// Claims a person recognises as a name for the account, the most specific first.
    static let readableNameClaims = ["preferred_username", "email", "username", "name"]

    /// The account's username: the first readable claim, else `sub`. Why `name` too: with the
    /// scopes `openid offline_access` many issuers send only `sub` and `name`, and `sub` is
    /// opaque ("Signed in as EKl2ymrNBR…"); a readable name that is not unique does no harm,
    /// since accounts are matched by issuer and `sub`, never by username.
    static func username(_ claims: [String: String], subject: String) -> String {
        for claim in readableNameClaims {
            if let value = claims[claim]?.trimmingWhitespace(), !value.isEmpty { return value }
        }
        return subject
    }

    func validate(_ idToken: Secret, meta: ProviderMetadata, client: OAuthClient, nonce: String?) async throws -> [String: String] {
        let now = context.clock.now()
        func validator(_ keys: JWKSet?) -> IDTokenValidator {
            IDTokenValidator(issuer: meta.issuer, clientId: client.id, clientSecret: client.secret, keys: keys)
        }
        // Keys only for a publicly signed token: an HS* one is checked with the client's secret.
        let signedPublicly = (try? JWT(compact: idToken.exposedValue)).map { JWKSet.asymmetric.contains($0.algorithm) } ?? true
        guard signedPublicly else { return try validator(nil).validate(idToken, now: now, nonce: nonce) }
        do {
            return try validator(try await resolver.keys(meta.jwksURI, refresh: false)).validate(idToken, now: now, nonce: nonce)
        } catch let failure as AuthFailure where failure.code == "invalid_id_token" && meta.jwksURI != nil {
            // The provider may have rotated its keys since they were cached: fetch once more.
            return try validator(try await resolver.keys(meta.jwksURI, refresh: true)).validate(idToken, now: now, nonce: nonce)
        }
    }

    public func renew(_ stored: StoredAccount, scopes wanted: [String], hearing: RotationHearing?) async throws -> Credentials {
        // Said without the network: offline, it would read as a connection error (exit 4)
        // though no answer can give the account the refresh token it lacks.
        if stored.credentials.extras["grant"]?.exposedValue != "client_credentials", stored.credentials.refreshToken == nil {
            throw FlowRunner.noRefreshToken(profileId: profile.id)
        }
        let meta = try await resolver.metadata(for: profile)
        let client = try await self.client(for: meta)
        let token = tokenEndpoint(meta, client)
        let now = context.clock.now()
        let requested = wanted.isEmpty ? scopes : Array(Set(wanted + ["openid"].filter { scopes.contains($0) })).sorted()
        let runner = FlowRunner(context: context, profileId: profile.id, token: token, scopes: requested)
        if stored.credentials.extras["grant"]?.exposedValue == "client_credentials" {
            return try await runner.client(scopes: requested, home: stored.credentials.grantHome)
                .credentials(now: now, requestedScopes: requested, idTokenClaims: [:])
        }
        let tokens = try await runner.refresh(stored, scopes: requested, profileId: profile.id, legacyHome: legacyHome(stored), hearing: hearing)
        var claims: [String: String] = [:]
        if let idToken = tokens.idToken {
            // The new refresh token must be kept whatever the id_token says (the old one is
            // spent); a bad id_token only means the old claims stay.
            if let fresh = try? await validate(idToken, meta: meta, client: client, nonce: nil) {
                guard fresh["sub"] == stored.credentials.idTokenClaims["sub"] || stored.credentials.idTokenClaims["sub"] == nil else {
                    throw AuthFailure(.misconfigured, code: "subject_changed",
                                      remedy: "the provider renewed \(stored.account.id) for a different user; sign in again")
                }
                claims = fresh
            }
        }
        return tokens.credentials(now: now, requestedScopes: requested, idTokenClaims: claims)
    }

    /// The home of a refresh token stored before homes were recorded: the issuer the
    /// account's subject (`iss|sub`) names, so it still goes to no other issuer.
    func legacyHome(_ stored: StoredAccount) -> GrantHome? {
        let parts = stored.account.subject.split(separator: "|", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return GrantHome(issuer: String(parts[0]), origins: [])
    }

    public func revoke(_ stored: StoredAccount) async throws {
        let meta = try await resolver.metadata(for: profile)
        guard let endpoint = meta.revocationEndpoint else {
            throw RevocationUnavailable(reason: "the issuer names no revocation endpoint")
        }
        let revocation = Revocation(endpoint: endpoint, client: try await client(for: meta), http: context.http,
                                    issuer: meta.issuer.isEmpty ? nil : meta.issuer)
        if let refresh = stored.credentials.refreshToken {
            try await revocation.revoke(refresh.value, hint: "refresh_token", home: stored.credentials.grantHome ?? legacyHome(stored), now: context.clock.now())
        }
        for token in stored.credentials.accessTokens where token.isValid(at: context.clock.now(), skew: .seconds(0)) {
            try await revocation.revoke(token.value, hint: "access_token", now: context.clock.now())
        }
    }
}
