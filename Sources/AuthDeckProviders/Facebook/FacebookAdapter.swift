import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// Facebook Graph apps, kind `facebook`: user access tokens, no refresh tokens.
///
/// Config: `client_id` (the app id), `options.client_token` (device login's client token,
/// which ships inside apps and is not a secret), an optional app secret from
/// `client_secret_file`/`client_secret_env` (enables the long-lived token exchange and so
/// silent renewal), `scopes` (sent comma-separated), `options.version`, `endpoints.graph`/`www`.
public struct FacebookAdapter: ProviderAdapter {
    public let profile: ProviderProfile
    let context: AdapterContext
    let endpoints: FacebookEndpoints
    let appId: String
    let clientToken: String?
    let secret: Secret?
    let redirect: AuthorizationCodeFlow.Redirect

    public init(profile: ProviderProfile, context: AdapterContext) throws {
        self.profile = profile
        self.context = context
        endpoints = FacebookEndpoints(profile)
        guard let id = profile.clientId, !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": client_id must be the numeric Facebook app id")
        }
        appId = id
        clientToken = profile.options["client_token"]
        secret = try SecretSource.clientSecret(profile, environment: context.environment)
        redirect = AuthorizationCodeFlow.Redirect(host: "127.0.0.1", port: try profile.redirectPort(), path: profile.options["redirect_path"] ?? "/callback")
    }

    public var capabilities: ProviderCapabilities { .of(profile) }

    var scopes: [String] { profile.scopes.isEmpty ? ["public_profile"] : profile.scopes }

    /// The app token device login and debug_token take: `APP_ID|CLIENT_TOKEN` (or the secret).
    func appToken() throws -> Secret {
        if let clientToken { return Secret("\(appId)|\(clientToken)") }
        if let secret { return Secret("\(appId)|\(secret.exposedValue)") }
        throw AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": set options.client_token (device login needs it)")
    }

    /// Where this app's tokens are made: the Graph API's origin, recorded with an account at
    /// sign-in so its token and the app secret are later sent nowhere else.
    var home: GrantHome { GrantHome(issuer: nil, origins: [endpoints.api("me")].compactMap(GrantHome.origin(of:))) }

    /// A Graph call; Facebook errors become `AuthFailure`s. With `home` (an account's), the
    /// secrets it carries go only there (`SecretDestination`).
    func graph(_ method: String, _ path: String, _ params: [(String, String)], secrets: [String], home: GrantHome? = nil) async throws -> JSONObject {
        let query = FormEncoding.encode(params)
        var request = method == "POST"
            ? HTTPRequest.form(endpoints.api(path), params)
            : HTTPRequest(method: method, url: endpoints.api(path) + "?" + query, headers: [HTTPHeader("Accept", "application/json")])
        if let home, let carried = request.effectivePassage { request.passage = SecretPassage(carried.kinds, home: home) }
        let response = try await TokenEndpoint.send(request, via: context.http)
        if let (code, subcode, message) = FacebookErrors.codes(response.body) {
            var f = FacebookErrors.failure(code: code, subcode: subcode, message: message)
            for s in secrets where s.count >= 4 { f.remedy = f.remedy.replacingOccurrences(of: s, with: "‹redacted›") }
            throw f
        }
        guard (200..<300).contains(response.status) else {
            throw AuthFailure(response.status >= 500 || response.status == 429 ? .transient : .misconfigured, code: "http \(response.status)",
                              remedy: "Facebook answered HTTP \(response.status)" + (response.status >= 500 ? "; nothing was changed" : ""))
        }
        // DELETE /me/permissions answers a bare `true`.
        if response.bodyText.trimmingCharacters(in: .whitespacesAndNewlines) == "true" { return JSONObject(["success": .bool(true)]) }
        guard let json = JSONObject(bytes: response.body) else {
            throw AuthFailure(.transient, code: "bad_response", remedy: "Facebook answered with something that is not JSON; nothing was changed")
        }
        return json
    }

    public func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
        var token: (Secret, Int64?)
        switch flow {
        case .device: token = try await deviceLogin(presenter: presenter, timeout: options.timeout)
        case .browser: token = try await browserLogin(presenter: presenter, options: options)
        default:
            throw AuthFailure(.misconfigured, code: AuthFailure.FlowNotOffered.unsupportedFlow, remedy: "Facebook sign-in offers --device and --browser")
        }
        if let long = try await exchangeForLongLived(token.0) { token = long }
        let me = try await graph("GET", "me", [("fields", "id,name,email"), ("access_token", token.0.exposedValue)], secrets: [token.0.exposedValue])
        guard let id = me.string("id") else { throw AuthFailure(.transient, code: "bad_response", remedy: "Facebook /me gave no id") }
        let credentials = try await credentials(for: token.0, expiresIn: token.1, claims: ["user_id": id, "name": me.string("name") ?? ""])
        return SignInResult(subject: "\(appId):\(id)", username: me.string("email") ?? me.string("name") ?? id,
                            displayName: me.string("name") ?? "", realm: nil, credentials: credentials)
    }

    /// Device login: comma-separated scopes; poll honouring `interval`; too-fast polling
    /// adds 5 s; an expired code is replaced when the person asks for a new one.
    func deviceLogin(presenter: any SignInPresenter, timeout: TimeSpan? = nil) async throws -> (Secret, Int64?) {
        let app = try appToken()
        // `--timeout` counts from the first code: a new code asked for later does not restart it.
        let wait = DeviceWait(timeout: timeout, now: context.clock.now())
        while true {
            let start = try await graph("POST", "device/login", [("access_token", app.exposedValue), ("scope", scopes.joined(separator: ","))],
                                        secrets: [app.exposedValue])
            guard let code = start.string("code"), let userCode = start.string("user_code") else {
                throw AuthFailure(.transient, code: "bad_response", remedy: "Facebook device login gave no code")
            }
            let issued = context.clock.now()
            let expiresIn = start.integer("expires_in") ?? 420
            await presenter.present(try SignInPrompt.checkedDeviceCode(
                userCode: userCode, verificationURI: start.string("verification_uri") ?? "https://www.facebook.com/device",
                verificationURIComplete: nil, message: nil, expiresAt: issued + .seconds(expiresIn), host: "Facebook"))
            var interval = Double(start.integer("interval") ?? 5)
            var outage = PollOutage()
            do {
                while true {
                    try await context.sleeper.sleep(seconds: wait.nap(interval, now: context.clock.now()))
                    do { try wait.check(now: context.clock.now()) } catch { throw outage.ending(error) }
                    do {
                        let done = try await graph("POST", "device/login_status", [("access_token", app.exposedValue), ("code", code)],
                                                   secrets: [app.exposedValue, code])
                        guard let token = done.string("access_token") else {
                            throw AuthFailure(.transient, code: "bad_response", remedy: "Facebook gave no access token")
                        }
                        return (Secret(token), done.integer("expires_in"))
                    } catch let f as AuthFailure {
                        // A network error or 5xx while the person approves: poll on, more slowly.
                        if f.errorClass == .transient, FacebookErrors.subcode(of: f) == nil {
                            if let notice = outage.failed(f) { await presenter.present(notice) }
                            interval = min(interval * 2, 30)
                            continue
                        }
                        if let notice = outage.answered() { await presenter.present(notice) }
                        // By subcode alone: PROVIDERS.md leaves the code of some of them unverified.
                        switch FacebookErrors.subcode(of: f) {
                        case 1349174: continue
                        case 1349172: interval += 5
                        case 1349173: throw AuthFailure(.declined, code: f.code, remedy: "the Facebook login was declined")
                        default: throw f
                        }
                    }
                }
            } catch let f as AuthFailure where FacebookErrors.subcode(of: f) == 1349152 {
                guard await presenter.confirm("The code expired before it was entered. Get a new code?") else {
                    throw AuthFailure(.needsInteraction, code: f.code, remedy: "the device code expired before it was entered; run the sign-in again")
                }
            }
        }
    }

    /// The login dialog through the loopback redirect, with PKCE and state; the code is
    /// exchanged at `/oauth/access_token` (GET).
    func browserLogin(presenter: any SignInPresenter, options: SignInOptions) async throws -> (Secret, Int64?) {
        if let problem = WebLink.problemOpening(endpoints.dialog, field: "the login dialog address") {
            throw AuthFailure(.misconfigured, code: "unsafe_url", remedy: "\(problem); nothing was opened, check the provider's endpoints")
        }
        let listener: LoopbackListener
        do { listener = try LoopbackListener(port: redirect.port, path: redirect.path) } catch {
            throw AuthFailure(.misconfigured, code: "loopback", remedy: "\(error)")
        }
        let redirectURI = "http://127.0.0.1:\(listener.port)\(redirect.path)"
        let pkce = PKCE(), state = Base64URL.random(byteCount: 24)
        let url = endpoints.dialog + "?" + FormEncoding.encode([
            ("client_id", appId), ("redirect_uri", redirectURI), ("state", state), ("response_type", "code"),
            ("scope", scopes.joined(separator: ",")), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
        ])
        let opened = options.openBrowser ? context.browser?.open(url) != nil : false
        await presenter.present(.browser(url: url, opened: opened))
        let params: [String: String]
        do {
            params = try await listener.awaitRedirect(timeout: Double(options.timeout.seconds), state: state) { p in
                p["state"] == state ? (200, "<h1>Done</h1><p>Return to authdeck.</p>") : (400, "<h1>Not this sign-in</h1>")
            }
        } catch let error as LoopbackListener.ListenerError where error.timedOut {
            throw SignInTimeout.failure("no sign-in redirect arrived", within: options.timeout, ignored: error.ignored)
        } catch {
            throw AuthFailure(.needsInteraction, code: "loopback", remedy: "\(error); start the sign-in again")
        }
        guard params["state"] == state else {
            throw AuthFailure(.misconfigured, code: "state_mismatch", remedy: "the redirect carried the wrong state; nothing was saved")
        }
        if params["error"] != nil { throw AuthFailure(.declined, code: "access_denied", remedy: "the Facebook login was declined") }
        guard let code = params["code"] else { throw AuthFailure(.misconfigured, code: "no_code", remedy: "the redirect carried no code") }
        var query = [("client_id", appId), ("redirect_uri", redirectURI), ("code", code), ("code_verifier", pkce.verifier)]
        if let secret { query.append(("client_secret", secret.exposedValue)) }
        let json = try await graph("GET", "oauth/access_token", query, secrets: [code, pkce.verifier] + (secret.map { [$0.exposedValue] } ?? []))
        guard let token = json.string("access_token") else { throw AuthFailure(.transient, code: "bad_response", remedy: "Facebook gave no token") }
        // The shape of this answer is UNVERIFIED: a missing expires_in is accepted.
        return (Secret(token), json.integer("expires_in"))
    }

    /// With an app secret, a short-lived token becomes a ~60-day one; without, nil.
    func exchangeForLongLived(_ token: Secret, home: GrantHome? = nil) async throws -> (Secret, Int64?)? {
        guard let secret else { return nil }
        let json = try await graph("GET", "oauth/access_token", [("grant_type", "fb_exchange_token"), ("client_id", appId),
                                                                 ("client_secret", secret.exposedValue), ("fb_exchange_token", token.exposedValue)],
                                   secrets: [secret.exposedValue, token.exposedValue], home: home)
        guard let long = json.string("access_token") else { return nil }
        return (Secret(long), json.integer("expires_in"))
    }

    /// The token as a credential, with expiry and scopes from `debug_token` (`expires_at`
    /// 0 means never expires).
    func credentials(for token: Secret, expiresIn: Int64?, claims: [String: String]) async throws -> Credentials {
        let now = context.clock.now()
        var expiresAt: Instant? = expiresIn.map { now + .seconds($0) }
        var granted = scopes
        var info = claims
        if let app = try? appToken(),
           let debug = try? await graph("GET", "debug_token", [("input_token", token.exposedValue), ("access_token", app.exposedValue)],
                                        secrets: [token.exposedValue, app.exposedValue]),
           let data = debug.object("data") {
            if let at = data.integer("expires_at") { expiresAt = at == 0 ? nil : Instant(secondsSinceEpoch: at) }
            if let s = data.strings("scopes") { granted = s }
            if let d = data.integer("data_access_expires_at") { info["data_access_expires_at"] = Instant(secondsSinceEpoch: d).iso8601 }
        }
        return Credentials(accessTokens: [AccessToken(id: UUIDString.make(), value: token, scopes: granted, tokenType: "bearer",
                                                      obtainedAt: now, expiresAt: expiresAt)],
                           idTokenClaims: info).recordingHome(home)
    }

    /// Renewal = the long-lived exchange again, which needs the app secret and a token that
    /// is still valid; otherwise only a sign-in helps.
    public func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials {
        guard secret != nil else {
            throw AuthFailure(.needsInteraction, code: "no_app_secret",
                              remedy: "Facebook tokens cannot be renewed silently without an app secret; sign in again: `authdeck login \(profile.id)`",
                              providerAsked: false)
        }
        guard let current = stored.credentials.accessTokens.max(by: { ($0.expiresAt ?? .init(secondsSinceEpoch: .max)) < ($1.expiresAt ?? .init(secondsSinceEpoch: .max)) }),
              let long = try await exchangeForLongLived(current.value, home: stored.credentials.grantHome) else {
            throw AuthFailure(.needsInteraction, code: "no_token", remedy: "no Facebook token to renew; sign in again")
        }
        return try await credentials(for: long.0, expiresIn: long.1, claims: stored.credentials.idTokenClaims)
    }

    /// `DELETE /me/permissions`: the app's grant is removed at Facebook.
    public func revoke(_ stored: StoredAccount) async throws {
        guard let token = stored.credentials.usableAccessToken(for: [], at: context.clock.now(), skew: .seconds(0)) else { return }
        let json: JSONObject
        do {
            json = try await graph("DELETE", "me/permissions", [("access_token", token.value.exposedValue)], secrets: [token.value.exposedValue],
                                   home: stored.credentials.grantHome)
        } catch let refused as AuthFailure where refused.code == "grant_moved" || refused.code == "insecure_endpoint" {
            // The Graph API moved since the sign-in: the token is not sent there; signed out here only.
            throw RevocationUnavailable(reason: refused.remedy)
        }
        guard json.bool("success") == true else {
            throw AuthFailure(.transient, code: "bad_response", remedy: "Facebook did not confirm the revocation")
        }
    }
}
