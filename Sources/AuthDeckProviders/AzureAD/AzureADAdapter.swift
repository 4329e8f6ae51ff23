import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Azure AD / Microsoft Entra ID (identity platform v2.0), kind `azuread`.
///
/// Flows: device code (Microsoft's own `message` is shown), authorization code + PKCE with
/// the `http://localhost:<ephemeral port>` redirect Azure expects, refresh (the rotated
/// refresh token is stored first), client credentials with a secret or a certificate
/// (PS256 assertion with `x5t#S256`), and ROPC only with `options.allow_password = true`.
/// Accounts are keyed by home account id (`uid.utid` from `client_info`); the realm is the
/// id_token's `tid`. Errors are classified by AADSTS code (`AzureADErrors`).
public struct AzureADAdapter: ProviderAdapter {
    public let profile: ProviderProfile
    let context: AdapterContext
    let endpoints: AzureADEndpoints
    let client: OAuthClient
    let redirect: AuthorizationCodeFlow.Redirect
    let allowPassword: Bool
    let resolver: MetadataResolver

    public init(profile: ProviderProfile, context: AdapterContext) throws {
        self.profile = profile
        self.context = context
        endpoints = AzureADEndpoints(profile)
        guard let clientId = profile.clientId, !clientId.isEmpty else {
            throw AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": client_id is required")
        }
        let o = profile.options
        if let keyPath = o["private_key_file"], let certPath = o["certificate_file"] {
            let key = try SecretSource.file(keyPath, what: "provider \"\(profile.id)\": private_key_file", environment: context.environment)
            let cert = try SecretSource.file(certPath, what: "provider \"\(profile.id)\": certificate_file", environment: context.environment)
            client = OAuthClient(id: clientId, authentication: .privateKeyJWT(
                try ClientAssertionSigner(privateKeyPEM: key.exposedValue, certificatePEM: cert.exposedValue, algorithm: .ps256)))
        } else if let secret = try SecretSource.clientSecret(profile, environment: context.environment) {
            client = OAuthClient(id: clientId, authentication: .secretPost(secret))
        } else {
            client = OAuthClient(id: clientId, authentication: .none)
        }
        redirect = AuthorizationCodeFlow.Redirect(host: o["redirect_host"] ?? "localhost", port: try profile.redirectPort(), path: o["redirect_path"] ?? "/")
        allowPassword = o["allow_password"] == "true"
        resolver = MetadataResolver(context: context)
    }

    public var capabilities: ProviderCapabilities { .of(profile) }

    var scopes: [String] { profile.scopes.isEmpty ? ["openid", "profile", "offline_access"] : profile.scopes }

    var tokenEndpoint: TokenEndpoint {
        var t = TokenEndpoint(url: endpoints.token, client: client, http: context.http,
                              issuer: "\(endpoints.authority)/\(endpoints.segment)", refine: AzureADErrors.refine)
        t.extraFields = [("client_info", "1")]
        return t
    }

    var runner: FlowRunner { FlowRunner(context: context, profileId: profile.id, token: tokenEndpoint, scopes: scopes) }

    public func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
        var nonce: String?
        let tokens: TokenSet
        switch flow {
        case .device:
            tokens = try await runner.device(endpoint: endpoints.deviceCode, presenter: presenter, options: options)
        case .browser:
            (tokens, nonce) = try await runner.browser(endpoint: endpoints.authorize, issuer: nil, issRequired: false, redirect: redirect,
                                                       extraParameters: [("response_mode", "query"), ("prompt", "select_account")]
                                                           + (options.username.map { [("login_hint", $0)] } ?? []),
                                                       presenter: presenter, options: options)
        case .password:
            await presenter.present(.notice("Signing in with a password (ROPC) is discouraged and fails under MFA or Conditional Access."))
            tokens = try await runner.password(allowed: allowPassword, options: options)
        case .client:
            let tokens = try await runner.client(scopes: scopes)
            var credentials = tokens.credentials(now: context.clock.now(), requestedScopes: scopes, idTokenClaims: [:])
            credentials.extras["grant"] = Secret("client_credentials")
            let tenant = profile.options["tenant"] ?? endpoints.segment
            return SignInResult(subject: "client:\(client.id)@\(tenant)", username: client.id, displayName: "app \(client.id)",
                                realm: profile.expectedRealm, credentials: credentials)
        case .import, .assertion:
            throw AuthFailure(.misconfigured, code: AuthFailure.FlowNotOffered.unsupportedFlow, remedy: "Azure AD sign-in offers --device, --browser, --client and --password")
        }
        guard let idToken = tokens.idToken else {
            throw AuthFailure(.misconfigured, code: "no_id_token", remedy: "Azure AD returned no id_token; add \"openid\" and \"profile\" to scopes")
        }
        let claims = try await validate(idToken, nonce: nonce)
        let who = try AzureADAccount(claims: claims, clientInfo: tokens.extra["client_info"])
        return SignInResult(subject: who.homeAccountId, username: who.username, displayName: who.displayName, realm: who.realm,
                            credentials: tokens.credentials(now: context.clock.now(), requestedScopes: scopes, idTokenClaims: claims))
    }

    /// Validates a v2.0 id_token: the issuer is tenant-specific (`<authority>/<tid>/v2.0`),
    /// so the `tid` claim names the issuer that the signature and `iss` are then checked against.
    func validate(_ idToken: Secret, nonce: String?) async throws -> [String: String] {
        guard let unverified = try? JWT(compact: idToken.exposedValue), let tid = unverified.claims.string("tid") else {
            throw AuthFailure(.misconfigured, code: "invalid_id_token", remedy: "the id_token was rejected: it is malformed or has no tid; nothing was saved")
        }
        let issuer = endpoints.issuer(tenantId: tid)
        func check(_ refresh: Bool) async throws -> [String: String] {
            let keys = try await resolver.keys(endpoints.keys, refresh: refresh)
            return try IDTokenValidator(issuer: issuer, clientId: client.id, clientSecret: nil, keys: keys)
                .validate(idToken, now: context.clock.now(), nonce: nonce)
        }
        do { return try await check(false) } catch let f as AuthFailure where f.code == "invalid_id_token" { return try await check(true) }
    }

    public func renew(_ stored: StoredAccount, scopes wanted: [String], hearing: RotationHearing?) async throws -> Credentials {
        let now = context.clock.now()
        let requested = wanted.isEmpty ? scopes : Array(Set(wanted + ["openid", "profile", "offline_access"])).sorted()
        let runner = FlowRunner(context: context, profileId: profile.id, token: tokenEndpoint, scopes: requested)
        if stored.credentials.extras["grant"]?.exposedValue == "client_credentials" {
            let s = wanted.isEmpty ? scopes : wanted
            return try await runner.client(scopes: s, home: stored.credentials.grantHome).credentials(now: now, requestedScopes: s, idTokenClaims: [:])
        }
        let tokens = try await runner.refresh(stored, scopes: requested, profileId: profile.id, hearing: hearing)
        var claims: [String: String] = [:]
        if let idToken = tokens.idToken, let fresh = try? await validate(idToken, nonce: nil) {
            if let oid = stored.credentials.idTokenClaims["oid"], fresh["oid"] != oid {
                throw AuthFailure(.misconfigured, code: "subject_changed", remedy: "Azure AD renewed \(stored.account.id) for a different user; sign in again")
            }
            claims = fresh
        }
        return tokens.credentials(now: now, requestedScopes: requested, idTokenClaims: claims)
    }

    /// Microsoft offers no token revocation endpoint for v2.0; sign-out is local.
    public func revoke(_ stored: StoredAccount) async throws {}
}
