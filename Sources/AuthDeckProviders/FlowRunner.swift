import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Runs the standard OAuth sign-in flows against a provider's endpoints, for every adapter
/// built on OAuth (generic OIDC, Azure AD): each adapter supplies endpoints, client,
/// scopes and its quirks; this runs the flow and returns the tokens.
struct FlowRunner: Sendable {
    let context: AdapterContext
    let profileId: String
    let token: TokenEndpoint
    let scopes: [String]

    /// Device authorization (RFC 8628), showing the provider's own message when it sends one.
    func device(endpoint: String?, presenter: any SignInPresenter, options: SignInOptions) async throws -> TokenSet {
        guard let endpoint else {
            throw AuthFailure(.misconfigured, code: AuthFailure.FlowNotOffered.noDeviceEndpoint,
                              remedy: "provider \"\(profileId)\" offers no device sign-in; use --browser")
        }
        let device = DeviceFlow(deviceEndpoint: endpoint, token: token, scopes: scopes, sleeper: context.sleeper, clock: context.clock)
        let authorization = try await device.start()
        await presenter.present(try SignInPrompt.checkedDeviceCode(
            userCode: authorization.userCode, verificationURI: authorization.verificationURI,
            verificationURIComplete: authorization.verificationURIComplete, message: authorization.message,
            expiresAt: authorization.issuedAt + .seconds(authorization.expiresIn), host: URL(string: endpoint)?.host ?? endpoint))
        return try await device.poll(authorization, timeout: options.timeout, presenter: presenter)
    }

    /// Authorization code + PKCE through the loopback; returns the tokens and the nonce.
    func browser(endpoint: String?, issuer: String?, issRequired: Bool, redirect: AuthorizationCodeFlow.Redirect,
                 extraParameters: [(String, String)] = [], presenter: any SignInPresenter,
                 options: SignInOptions) async throws -> (TokenSet, String) {
        guard let endpoint else {
            throw AuthFailure(.misconfigured, code: AuthFailure.FlowNotOffered.noAuthorizationEndpoint,
                              remedy: "provider \"\(profileId)\" has no authorization endpoint; use --device")
        }
        let flow = AuthorizationCodeFlow(authorizationEndpoint: endpoint, token: token, scopes: scopes, issuer: issuer,
                                         issRequired: issRequired, redirect: redirect, extraParameters: extraParameters,
                                         clock: context.clock)
        return try await flow.run(presenter: presenter, browser: options.openBrowser ? context.browser : nil, timeout: options.timeout)
    }

    /// The resource owner password grant, only where the provider config allows it.
    func password(allowed: Bool, options: SignInOptions) async throws -> TokenSet {
        guard allowed else { throw Self.passwordDisabled(profileId: profileId) }
        guard let username = options.username, let password = options.password else {
            throw AuthFailure(.misconfigured, code: "no_credentials", remedy: "the password grant needs --username and a password")
        }
        return try await token.request([("grant_type", "password"), ("username", username),
                                        ("password", password.exposedValue), ("scope", scopes.joined(separator: " "))],
                                       grant: .password, secrets: [password.exposedValue], now: context.clock.now())
    }

    /// Client credentials for `scopes` (identity scopes removed: the app is not a user). A
    /// renewal names the grant's `home`, so the client's secret goes only where it went at sign-in.
    func client(scopes: [String], home: GrantHome? = nil) async throws -> TokenSet {
        try await token.request([("grant_type", "client_credentials"),
                                 ("scope", scopes.filter { !["openid", "profile", "offline_access", "email"].contains($0) }.joined(separator: " "))],
                                grant: .clientCredentials, secrets: [], home: home, now: context.clock.now())
    }

    /// What a password sign-in says where config does not allow the grant.
    static func passwordDisabled(profileId: String) -> AuthFailure {
        AuthFailure(.misconfigured, code: AuthFailure.FlowNotOffered.passwordDisabled,
                    remedy: "provider \"\(profileId)\" does not allow the password grant (it is discouraged); set options.allow_password = true to use it")
    }

    /// What a renewal without a refresh token says: only a person can help.
    static func noRefreshToken(profileId: String) -> AuthFailure {
        AuthFailure(.needsInteraction, code: "no_refresh_token", remedy: "it holds no refresh token; sign in again: `authdeck login \(profileId)`",
                    providerAsked: false)
    }

    /// The refresh grant with the account's refresh token, sent only to the token's home
    /// (`legacyHome` for a token stored before homes were recorded); `hearing` is told of the
    /// rotated one as soon as the answer is read.
    func refresh(_ stored: StoredAccount, scopes: [String], profileId: String, legacyHome: GrantHome? = nil,
                 hearing: RotationHearing?) async throws -> TokenSet {
        guard let refresh = stored.credentials.refreshToken else { throw Self.noRefreshToken(profileId: profileId) }
        return try await token.request([("grant_type", "refresh_token"), ("refresh_token", refresh.value.exposedValue),
                                        ("scope", scopes.joined(separator: " "))],
                                       grant: .refresh, secrets: [refresh.value.exposedValue], home: stored.credentials.grantHome ?? legacyHome,
                                       hearing: hearing, now: context.clock.now())
    }
}
