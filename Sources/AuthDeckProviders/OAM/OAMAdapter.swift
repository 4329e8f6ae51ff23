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
    /// preferences stay when the person chose to be remembered, unless `clearRegistration`.
    public func keptAfterSignOut(_ stored: StoredAccount, clearRegistration: Bool) -> Credentials? {
        let remembered = stored.credentials.extras["oam.remember"]
        guard !clearRegistration, let remembered, remembered.exposedValue != OAMCredentialOptions.Remembrance.none.rawValue else { return nil }
        return Credentials(extras: ["oam.remember": remembered])
    }

    var scopes: [String] { profile.scopes }

    var tokenEndpoint: TokenEndpoint {
        TokenEndpoint(url: settings.token, client: settings.client, http: context.http,
                      extraHeaders: settings.identityHeader.map { [$0] } ?? [])
    }

    func request(_ grant: String, _ fields: [(String, String)], kind: TokenEndpoint.Grant, secrets: [String]) async throws -> TokenSet {
        let scope = scopes.isEmpty ? [] : [("scope", scopes.joined(separator: " "))]
        return try await tokenEndpoint.request([("grant_type", settings.grant(grant))] + fields + scope, grant: kind, secrets: secrets,
                                               now: context.clock.now())
    }

    public func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
        let tokens: TokenSet
        var username = options.username
        switch flow {
        case .password:
            guard let user = options.username, let password = options.password else {
                throw AuthFailure(.misconfigured, code: "no_credentials", remedy: "OAM password sign-in needs --username and a password")
            }
            tokens = try await request("password", [("username", user), ("password", password.exposedValue)], kind: .password,
                                       secrets: [password.exposedValue])
        case .client:
            tokens = try await request("client_credentials", [], kind: .clientCredentials, secrets: [])
            var credentials = tokens.credentials(now: context.clock.now(), requestedScopes: scopes, idTokenClaims: [:])
            credentials.extras["grant"] = Secret("client_credentials")
            return SignInResult(subject: "client:\(settings.client.id)@\(host)", username: settings.client.id,
                                displayName: "client \(settings.client.id)", realm: nil, credentials: credentials)
        case .browser:
            let runner = FlowRunner(context: context, profileId: profile.id, token: tokenEndpoint, scopes: scopes)
            (tokens, _) = try await runner.browser(endpoint: settings.authorization, issuer: nil, issRequired: false, redirect: settings.redirect,
                                                   presenter: presenter, options: options)
        case .assertion:
            guard let path = settings.assertionFile else {
                throw AuthFailure(.misconfigured, code: "no_assertion", remedy: "provider \"\(profile.id)\": set options.assertion_file")
            }
            let assertion = try SecretSource.file(path, what: "provider \"\(profile.id)\": assertion_file", environment: context.environment)
            tokens = try await request("urn:ietf:params:oauth:grant-type:jwt-bearer", [("assertion", assertion.exposedValue)], kind: .jwtBearer,
                                       secrets: [assertion.exposedValue])
            username = username ?? (try? JWT(compact: assertion.exposedValue))?.claims.string("sub")
        default:
            throw AuthFailure(.misconfigured, code: "unsupported", remedy: "OAM sign-in offers --password, --client, --browser and --assertion")
        }
        let who = await profileClaims(tokens.accessToken)
        guard let user = who["uid"] ?? who["sub"] ?? username else {
            throw AuthFailure(.misconfigured, code: "no_subject", remedy: "OAM did not say who signed in (no profile endpoint answer)")
        }
        return SignInResult(subject: "oam:\(user.lowercased())@\(host)", username: user, displayName: who["commonname"] ?? who["name"] ?? "",
                            realm: settings.identityHeader?.value,
                            credentials: tokens.credentials(now: context.clock.now(), requestedScopes: scopes, idTokenClaims: who))
    }

    var host: String { URL(string: settings.token)?.host ?? "oam" }

    /// The user profile (`uid`, `commonname`, `mail` on 11g; `sub`, `name` on 12c).
    func profileClaims(_ token: Secret) async -> [String: String] {
        guard let url = settings.profileURL else { return [:] }
        return await UserInfo.fetch(url, accessToken: token, http: context.http) ?? [:]
    }

    public func renew(_ stored: StoredAccount, scopes wanted: [String]) async throws -> Credentials {
        let now = context.clock.now()
        let requested = wanted.isEmpty ? scopes : wanted
        let scope = requested.isEmpty ? [] : [("scope", requested.joined(separator: " "))]
        if stored.credentials.extras["grant"]?.exposedValue == "client_credentials" {
            let t = try await tokenEndpoint.request([("grant_type", settings.grant("client_credentials"))] + scope, grant: .clientCredentials,
                                                    secrets: [], now: now)
            return t.credentials(now: now, requestedScopes: requested, idTokenClaims: [:])
        }
        do {
            guard let refresh = stored.credentials.refreshToken else {
                throw AuthFailure(.needsInteraction, code: "no_refresh_token", remedy: "it holds no refresh token; sign in again: `authdeck login \(stored.account.providerId)`")
            }
            let t = try await tokenEndpoint.request([("grant_type", settings.grant("refresh_token")), ("refresh_token", refresh.value.exposedValue)] + scope,
                                                    grant: .refresh, secrets: [refresh.value.exposedValue], now: now)
            return t.credentials(now: now, requestedScopes: requested, idTokenClaims: [:])
        } catch let f as AuthFailure where f.errorClass == .needsInteraction {
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
        guard let url = settings.revocation else { return }
        let revocation = Revocation(endpoint: url, client: settings.client, http: context.http, extraHeaders: settings.identityHeader.map { [$0] } ?? [])
        if let refresh = stored.credentials.refreshToken {
            try await revocation.revoke(refresh.value, hint: "refresh_token", now: context.clock.now())
        }
    }
}
