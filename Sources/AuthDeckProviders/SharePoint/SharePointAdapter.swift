import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// SharePoint Online sites, kind `sharepoint`: credentials are cookies.
///
/// Modern (default): a signed-in account of `options.azure_provider` supplies an access
/// token for `https://<site>/.default` — renewed through that account's own single-flight
/// renewal, so its refresh token has one owner — and the token is exchanged at
/// `/_api/SP.OAuth.NativeClient/Authenticate` for an `SPOIDCRL` cookie. The SharePoint
/// account keeps the cookie and the link (`extras["azure.account"]`), so renewal needs no
/// person while the Azure AD account can renew. Legacy (`mode = "legacy"`): WS-Trust SAML for
/// managed accounts, FedAuth + rtFa. Either way the cookies are sealed like every secret.
public struct SharePointAdapter: ProviderAdapter {
    public let profile: ProviderProfile
    let context: AdapterContext
    let settings: SharePointSettings
    let azure: AzureADAdapter?

    public init(profile: ProviderProfile, context: AdapterContext, providers: [ProviderProfile]) throws {
        self.profile = profile
        self.context = context
        settings = try SharePointSettings(profile, providers: providers)
        azure = try settings.azure.map { try AzureADAdapter(profile: $0, context: context) }
    }

    public var capabilities: ProviderCapabilities { .of(profile) }

    public func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
        if flow == .browser {
            // The person's browser window is a process of authdeck's own, not a request:
            // AuthDeckApp's BrowserSignIn runs it, and every caller goes there first.
            throw AuthFailure(.misconfigured, code: "browser_window", remedy: "a SharePoint browser sign-in runs in authdeck's sign-in window (`authdeck login \(profile.id) --browser`)")
        }
        if settings.legacy { return try await legacySignIn(options: options) }
        guard let azureId = settings.azure?.id else {
            throw AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\" has no azure_provider; its flow is the browser window (`authdeck login \(profile.id) --browser`)")
        }
        guard let linked = try linkedAccount(username: options.username) else {
            throw AuthFailure(.needsInteraction, code: "no_azure_account",
                              remedy: "no signed-in account of the Azure AD provider \"\(azureId)\"\(options.username.map { " for \($0)" } ?? ""); sign in there first: `authdeck login \(azureId)`")
        }
        await presenter.present(.notice("Using the Azure AD account \(linked.account.username) (\(linked.account.id)) for \(settings.site)."))
        let cookies = try await cookies(through: linked.account.id)
        return SignInResult(subject: linked.account.subject + "@" + settings.site, username: linked.account.username,
                            displayName: linked.account.displayName.isEmpty ? settings.site : linked.account.displayName,
                            realm: settings.site,
                            credentials: Credentials(cookies: cookies, extras: ["azure.account": Secret(linked.account.id)])
                                .recordingHome(siteHome))
    }

    /// The most recently signed-in renewable account of the linked Azure AD provider (the one
    /// named by `username`, when given).
    func linkedAccount(username: String?) throws -> StoredAccount? {
        guard let store = context.accounts, let azureId = settings.azure?.id else { return nil }
        return try store.accounts(providerId: azureId, subject: nil)
            .filter { $0.account.quarantinedAt == nil && $0.credentials.refreshToken != nil }
            .filter { username == nil || $0.account.username.lowercased() == username!.lowercased() }
            .max { ($0.account.lastSignInAt ?? $0.account.createdAt) < ($1.account.lastSignInAt ?? $1.account.createdAt) }
    }

    /// Where the site's token exchange happens (`site_url`'s origin): recorded with an account at
    /// sign-in, so a `site_url` moved later gets no token minted for the site.
    var siteHome: GrantHome { GrantHome(issuer: nil, origins: [settings.siteURL].compactMap(GrantHome.origin(of:))) }

    /// A SharePoint-audience token from the linked Azure AD account (renewed through the
    /// coordinator: its lease, its generation check), exchanged for the site's cookie — only at
    /// `home` (the account's, on a renewal).
    func cookies(through azureAccountId: String, home: GrantHome? = nil) async throws -> [Cookie] {
        do {
            return try await cookies(through: azureAccountId, forceToken: false, home: home)
        } catch let failure as AuthFailure where failure.code == "http 401" {
            // The site refused a token that looked valid here (revoked, or clocks disagree):
            // get a new one once before giving up.
            return try await cookies(through: azureAccountId, forceToken: true, home: home)
        }
    }

    func cookies(through azureAccountId: String, forceToken: Bool, home: GrantHome?) async throws -> [Cookie] {
        guard let azure, let store = context.accounts else {
            throw AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\" cannot reach its Azure AD provider")
        }
        let renewer = RenewalCoordinator(store: store, clock: context.clock, holder: context.leaseHolder, skew: .seconds(60))
        let linked = try await renewer.renew(azureAccountId, with: azure, scopes: [settings.resourceScope], force: forceToken)
        guard let token = linked.credentials.usableAccessToken(for: [settings.resourceScope], at: context.clock.now(), skew: .seconds(0)) else {
            throw AuthFailure(.needsInteraction, code: "no_token", remedy: "Azure AD gave no token for \(settings.site); sign in again")
        }
        var request = HTTPRequest(method: "POST", url: "\(settings.siteURL)/_api/SP.OAuth.NativeClient/Authenticate",
                                  headers: [HTTPHeader("Authorization", "Bearer \(token.value.exposedValue)"),
                                            HTTPHeader("Accept", "application/json;odata=verbose")], body: [])
        request.cookieJar = []
        if let home { request.passage = SecretPassage([.accessToken], home: home) }
        let response = try await TokenEndpoint.send(request, via: context.http)
        if response.status == 401 || response.status == 403 {
            throw AuthFailure(.needsInteraction, code: "http \(response.status)",
                              remedy: "\(settings.site) refused the Azure AD token (HTTP \(response.status)); sign in again")
        }
        guard response.status == 200 else {
            throw AuthFailure(response.status >= 500 ? .transient : .misconfigured, code: "http \(response.status)",
                              remedy: "\(settings.site) answered HTTP \(response.status) to the cookie request" + (response.status >= 500 ? "; nothing was changed" : ""))
        }
        let cookies = try Self.cookies(from: response.cookieJar ?? [])
        guard cookies.contains(where: { $0.name == "SPOIDCRL" }) else {
            throw AuthFailure(.misconfigured, code: "no_cookie", remedy: "\(settings.site) set no SPOIDCRL cookie")
        }
        return cookies
    }

    /// The legacy sign-in's home: the login service and the site, where a remembered password
    /// and the token it buys go on later renewals, and nowhere else.
    var legacyHome: GrantHome { GrantHome(issuer: nil, origins: [settings.loginURL, settings.siteURL].compactMap(GrantHome.origin(of:))) }

    func legacySignIn(options: SignInOptions, home: GrantHome? = nil) async throws -> SignInResult {
        guard let username = options.username, let password = options.password else {
            throw AuthFailure(.misconfigured, code: "no_credentials", remedy: "the legacy SharePoint sign-in needs --username and a password (--password)")
        }
        // A renewal asks first, so a moved login service is not even asked about the user.
        if let home, let refusal = SecretDestination.refusal(.password, to: "\(settings.loginURL)/extSTS.srf", home: home) {
            throw AuthFailure(refusal.errorClass, code: refusal.code, remedy: refusal.description)
        }
        let saml = SharePointSAML(settings: settings, http: context.http, home: home)
        try await saml.checkRealm(username)
        let jar = try await saml.exchange(try await saml.requestToken(username: username, password: password))
        let cookies = try Self.cookies(from: jar)
        guard cookies.contains(where: { $0.name == "FedAuth" }) else {
            throw AuthFailure(.misconfigured, code: "no_cookie",
                              remedy: "\(settings.site) set no FedAuth cookie for its own host (a cookie for another domain is refused); nothing was saved")
        }
        var credentials = Credentials(cookies: cookies).recordingHome(legacyHome)
        if settings.rememberPassword {
            credentials.extras["legacy.username"] = Secret(username)
            credentials.extras["legacy.password"] = password
        }
        return SignInResult(subject: "legacy:\(username.lowercased())@\(settings.site)", username: username, displayName: settings.site,
                            realm: settings.site, credentials: credentials)
    }

    /// Renews the cookies: through the linked Azure AD account (modern) or the remembered
    /// password (legacy); fresh cookies replace the old set.
    public func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials {
        if settings.legacy {
            guard let username = stored.credentials.extras["legacy.username"]?.exposedValue,
                  let password = stored.credentials.extras["legacy.password"] else {
                throw AuthFailure(.needsInteraction, code: "no_password",
                                  remedy: "legacy SharePoint cookies renew only with options.remember_password = true; sign in again: `authdeck login \(profile.id) --password`")
            }
            return try await legacySignIn(options: SignInOptions(username: username, password: password), home: stored.credentials.grantHome).credentials
        }
        guard let linked = stored.credentials.extras["azure.account"]?.exposedValue else {
            throw AuthFailure(.needsInteraction, code: "no_azure_account", remedy: "\(stored.account.id) is not linked to an Azure AD account; sign in again")
        }
        return Credentials(cookies: try await cookies(through: linked, home: stored.credentials.grantHome), extras: stored.credentials.extras)
    }

    /// SharePoint has no token revocation; sign-out is local (rtFa is cleared by deleting it).
    public func revoke(_ stored: StoredAccount) async throws {}

    /// Asks the site whether the cookies still work (`/_api/contextinfo`): 403 with
    /// `X-FORMS_BASED_AUTH_REQUIRED`, or 401, means they have expired server-side.
    public func probe(_ stored: StoredAccount) async throws -> Bool? {
        var request = HTTPRequest(method: "POST", url: "\(settings.siteURL)/_api/contextinfo",
                                  headers: [HTTPHeader("Accept", "application/json;odata=verbose"),
                                            HTTPHeader("X-FORMS_BASED_AUTH_ACCEPTED", "f")], body: [])
        do { request.cookieJar = try NetscapeCookieJar.lines(stored.credentials.cookies) } catch {
            throw AuthFailure(.needsInteraction, code: "bad_cookie", remedy: "\(stored.account.id): \(error); sign in again")
        }
        let response = try await TokenEndpoint.send(request, via: context.http)
        if response.status == 401 || (response.status == 403 && response.header("X-FORMS_BASED_AUTH_REQUIRED") != nil) { return false }
        if response.status >= 500 {
            throw AuthFailure(.transient, code: "http \(response.status)", remedy: "\(settings.site) is unavailable (HTTP \(response.status))")
        }
        return response.status == 200
    }

    /// Cookies from libcurl's jar lines; one authdeck could not write back (`CookieSyntax`) is
    /// left out — the site's sign-in cookies are checked for by name afterwards.
    static func cookies(from jar: [String]) throws -> [Cookie] {
        do {
            return try NetscapeCookieJar.parse(jar.joined(separator: "\n"), unfit: .skip, makeID: UUIDString.make)
        } catch {
            throw AuthFailure(.transient, code: "bad_cookie", remedy: "the site's cookies could not be read (\(error))")
        }
    }
}
