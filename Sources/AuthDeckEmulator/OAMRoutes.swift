import Foundation

/// Oracle Access Management OAuth (PROVIDERS.md §5): the 11gR2 Mobile & Social service
/// (`/ms_oauth/…`) and the 12c/14c REST service (`/oauth2/rest/…`).
///
/// Token requests need HTTP Basic client authentication and the identity domain, in the
/// `X-OAUTH-IDENTITY-DOMAIN-NAME` header (any case) or, for 12c, the `identityDomain` query
/// parameter. `grant_type` is accepted in the documented UPPERCASE and the standard
/// lowercase forms. Revocation paths are UNVERIFIED (no primary source): RFC 7009 shape at
/// `…/oauthservice/revoke` and `/oauth2/rest/token/revoke`.
///
/// Mobile client registration (PROVIDERS.md §5): a public client (its `client_id` in the form,
/// no secret) may ask for a pre-authz code (`grant_type=client_credentials`,
/// `oracle_device_profile` = base64 JSON, `oracle_requested_assertions=…/mobile-client-pre-authz-code-client`),
/// then for a client assertion with that code (`oracle_pre_authz_code`,
/// `oracle_requested_assertions=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`) and
/// either the user's password (2-legged) or an authorization code whose authorize request
/// carried the same pre-authz code (3-legged). Every other request of such a client
/// authenticates with `client_assertion` + `client_assertion_type`; an expired, revoked or
/// unknown assertion is answered 401 `invalid_client`.
struct OAMRoutes: Sendable {
    let state: EmulatorState
    let base: String

    static let tokenPaths: Set<String> = ["/ms_oauth/oauth2/endpoints/oauthservice/tokens", "/oauth2/rest/token"]
    static let authorizePaths: Set<String> = ["/ms_oauth/oauth2/endpoints/oauthservice/authorize", "/oauth2/rest/authz"]
    static let profilePaths: Set<String> = ["/ms_oauth/resources/userprofile/me", "/oauth2/rest/userinfo"]
    static let revokePaths: Set<String> = ["/ms_oauth/oauth2/endpoints/oauthservice/revoke", "/oauth2/rest/token/revoke"]

    static func error(_ status: Int, _ error: String, _ description: String) -> EmulatorResponse {
        .json(status, ["error": error, "error_description": description])
    }

    func handle(_ r: EmulatorRequest) async -> EmulatorResponse? {
        if Self.tokenPaths.contains(r.path), r.method == "POST" {
            if let forced = await state.takeForced(path: r.path) {
                return forced.status.map { .html($0, "<h1>Unavailable</h1>") } ?? Self.error(400, "invalid_grant", "Forced error.")
            }
            return await token(r)
        }
        if Self.authorizePaths.contains(r.path) { return await authorize(r) }
        if Self.profilePaths.contains(r.path), r.method == "GET" { return await profile(r) }
        if Self.revokePaths.contains(r.path), r.method == "POST" { return await revoke(r) }
        return nil
    }

    static let preAuthzAssertion = "oracle-idm:/oauth/assertion-type/client-identity/mobile-client-pre-authz-code-client"
    static let clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// An authenticated client: its id and, when it used one, its client assertion's user.
    struct Client {
        var id: String
        var assertionUser: String?
    }

    /// Checks the identity domain and the client: a client assertion, HTTP Basic, or (for a
    /// registration step only) a known client's bare `client_id`.
    func authenticate(_ r: EmulatorRequest, registrationStep: Bool = false) async -> Result<Client, ErrorAnswer> {
        let domain = await state.directory.oamIdentityDomain ?? "DefaultDomain"
        let given = r.headers["x-oauth-identity-domain-name"] ?? r.query["identityDomain"]
        guard let given else { return .failure(ErrorAnswer(Self.error(400, "invalid_request", "The identity domain is missing (X-OAUTH-IDENTITY-DOMAIN-NAME)."))) }
        guard given == domain else { return .failure(ErrorAnswer(Self.error(400, "invalid_request", "Identity domain \(given) was not found."))) }
        let f = r.form
        if let assertion = f["client_assertion"] {
            guard f["client_assertion_type"] == Self.clientAssertionType else {
                return .failure(ErrorAnswer(Self.error(400, "invalid_request", "Unsupported client_assertion_type.")))
            }
            let used = await state.withOAM { registry, now in registry.use(assertion, now: now) }
            guard let used, f["client_id"] == nil || f["client_id"] == used.clientId else {
                return .failure(ErrorAnswer(Self.error(401, "invalid_client", "The client assertion is invalid, expired or revoked.")))
            }
            return .success(Client(id: used.clientId, assertionUser: used.user))
        }
        if let (id, secret) = r.basicCredentials {
            guard let client = await state.directory.client(id), client.secret == secret else {
                return .failure(ErrorAnswer(Self.error(401, "invalid_client", "Client authentication failed.")))
            }
            return .success(Client(id: id))
        }
        if registrationStep, let id = f["client_id"], await state.directory.client(id) != nil {
            return .success(Client(id: id))
        }
        return .failure(ErrorAnswer(Self.error(401, "invalid_client", "Client authentication failed.")))
    }

    struct ErrorAnswer: Error { let response: EmulatorResponse; init(_ r: EmulatorResponse) { response = r } }

    func token(_ r: EmulatorRequest) async -> EmulatorResponse {
        let f = r.form
        let client: Client
        switch await authenticate(r, registrationStep: f["oracle_requested_assertions"] != nil) {
        case .failure(let e): return e.response
        case .success(let c): client = c
        }
        let clientId = client.id
        if let requested = f["oracle_requested_assertions"] { return await register(r, requested: requested, clientId: clientId) }
        let scopes = (f["scope"] ?? "").split(separator: " ").map(String.init)
        let now = await state.now
        let directory = await state.directory
        switch Self.normalise(f["grant_type"] ?? "") {
        case "password":
            guard let user = directory.user(f["username"] ?? ""), user.password == f["password"] else {
                return Self.error(400, "invalid_grant", "Invalid user credentials.")
            }
            // A client assertion is bound to its user: another user's password does not ride on it.
            if let bound = client.assertionUser, bound.lowercased() != user.username.lowercased() {
                return Self.error(400, "invalid_grant", "The client assertion was issued for another user.")
            }
            return await issue(user: user.username, clientId: clientId, scopes: scopes, refresh: true)
        case "refresh_token":
            let (found, reused) = await state.redeemRefresh(f["refresh_token"] ?? "")
            guard let g = found, g.clientId == clientId, !reused, !g.revoked, g.expires > now, let user = g.user else {
                return Self.error(400, "invalid_grant", "Invalid refresh token.")
            }
            return await issue(user: user, clientId: clientId, scopes: scopes.isEmpty ? g.scopes : scopes, refresh: true)
        case "client_credentials":
            return await issue(user: nil, clientId: clientId, scopes: scopes, refresh: false)
        case "authorization_code":
            guard let code = await state.redeem(code: f["code"] ?? ""), !code.redeemed, code.clientId == clientId,
                  code.redirectURI == f["redirect_uri"] else { return Self.error(400, "invalid_grant", "Invalid authorization code.") }
            return await issue(user: code.user, clientId: clientId, scopes: code.scopes, refresh: true)
        case "jwt_bearer":
            // The user assertion's signature is not checked here (no key exchange with the
            // emulator); its `sub` must be a known user and it must not have expired.
            let parts = (f["assertion"] ?? "").split(separator: ".").map(String.init)
            guard parts.count >= 2, let data = unb64(parts[1]), let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let sub = claims["sub"] as? String, let user = directory.user(sub),
                  ((claims["exp"] as? NSNumber)?.doubleValue ?? 0) > now.timeIntervalSince1970 else {
                return Self.error(400, "invalid_grant", "Invalid user assertion.")
            }
            return await issue(user: user.username, clientId: clientId, scopes: scopes, refresh: true)
        default:
            return Self.error(400, "unsupported_grant_type", "Grant type \(f["grant_type"] ?? "") is not supported.")
        }
    }

    /// The two registration steps. Step 1 issues a pre-authz code for the device profile;
    /// step 2 spends it with the user's password or a 3-legged authorization code and issues the
    /// client assertion, bound to client, user and device, living `OAMRegistry.lifetime`.
    func register(_ r: EmulatorRequest, requested: String, clientId: String) async -> EmulatorResponse {
        let f = r.form
        let grant = Self.normalise(f["grant_type"] ?? "")
        var seen: [String: String] = ["client_id": clientId, "grant_type": f["grant_type"] ?? "", "oracle_requested_assertions": requested]
        let device = f["oracle_device_profile"].flatMap(Self.deviceProfile)
        if let device { seen["device_id"] = device["oracle:idm:claims:client:udid"] ?? "" }
        if f["oracle_pre_authz_code"] != nil { seen["oracle_pre_authz_code"] = "present" }
        if let user = f["username"] { seen["username"] = user }
        let record = seen
        await state.withOAM { registry, _ in registry.steps.append(.init(fields: record)) }
        switch (requested, grant) {
        case (Self.preAuthzAssertion, "client_credentials"):
            guard let device else {
                return Self.error(400, "invalid_request", "oracle_device_profile must be the device profile as base64 JSON.")
            }
            let deviceId = device["oracle:idm:claims:client:udid"] ?? ""
            let code = await state.withOAM { registry, now in registry.issuePreAuthz(clientId: clientId, deviceId: deviceId, now: now) }
            return .json(200, ["access_token": code, "token_type": "Bearer", "expires_in": Int(OAMRegistry.preAuthzLifetime),
                               "oracle_tk_context": "pre_azc", "oracle_grant_type": Self.preAuthzAssertion])
        case (Self.clientAssertionType, "password"), (Self.clientAssertionType, "authorization_code"):
            let given = f["oracle_pre_authz_code"] ?? ""
            let deviceId = await state.withOAM { registry, now in registry.redeemPreAuthz(given, clientId: clientId, now: now) }
            guard let deviceId else { return Self.error(400, "invalid_grant", "The pre-authorization code is invalid or expired.") }
            let user: String
            if grant == "password" {
                guard let u = await state.directory.user(f["username"] ?? ""), u.password == f["password"] else {
                    return Self.error(400, "invalid_grant", "Invalid user credentials.")
                }
                user = u.username
            } else {
                guard let code = await state.redeem(code: f["code"] ?? ""), !code.redeemed, code.clientId == clientId,
                      code.redirectURI == f["redirect_uri"], code.preAuthz == given else {
                    return Self.error(400, "invalid_grant", "Invalid authorization code.")
                }
                user = code.user
            }
            let assertion = await state.withOAM { registry, now in registry.issueAssertion(clientId: clientId, user: user, deviceId: deviceId, now: now) }
            let lifetime = await state.withOAM { registry, _ in registry.lifetime }
            return .json(200, ["access_token": assertion, "token_type": "Bearer", "expires_in": Int(lifetime),
                               "oracle_tk_context": "client_assertion", "oracle_grant_type": Self.clientAssertionType,
                               "oracle_aux_tokens": [String: String](), "oracle_token_in_server_device_store": "true"])
        default:
            return Self.error(400, "invalid_request", "Unsupported oracle_requested_assertions \(requested) for grant type \(f["grant_type"] ?? "").")
        }
    }

    /// A device profile: base64 (standard or URL alphabet) of a JSON object; its string claims.
    static func deviceProfile(_ text: String) -> [String: String]? {
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let padded = standard + String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: padded), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object.compactMapValues { $0 as? String }
    }

    /// `PASSWORD` and `password`, `JWT_BEARER` and the RFC 7523 URN, … are the same grant.
    static func normalise(_ grant: String) -> String {
        switch grant.lowercased() {
        case "urn:ietf:params:oauth:grant-type:jwt-bearer", "jwt_bearer": return "jwt_bearer"
        default: return grant.lowercased()
        }
    }

    func issue(user: String?, clientId: String, scopes: [String], refresh: Bool) async -> EmulatorResponse {
        let now = await state.now
        let lifetime = await state.accessTokenLifetime
        let granted = scopes.isEmpty ? ["UserProfile.me"] : scopes
        let at = await state.issueAccess(.init(user: user, clientId: clientId, scopes: granted, expires: now.addingTimeInterval(lifetime),
                                               audience: "oam", tenant: "oam"))
        var body: [String: Any] = ["access_token": at, "token_type": "Bearer", "expires_in": Int(lifetime), "scope": granted.joined(separator: " "),
                                   "oracle_tk_context": "resource_access_tk", "oracle_grant_type": "oracle-idm:/oauth/grant-type/resource-access-token/jwt"]
        if refresh, user != nil {
            body["refresh_token"] = await state.issueRefresh(.init(user: user, clientId: clientId, scopes: granted,
                                                                   expires: now.addingTimeInterval(await state.refreshTokenLifetime),
                                                                   audience: "oam", tenant: "oam"))
        }
        return .json(200, body)
    }

    func authorize(_ r: EmulatorRequest) async -> EmulatorResponse {
        let p = r.method == "GET" ? r.query : r.form
        guard let redirect = p["redirect_uri"], AzureRoutes.isLoopback(redirect), let clientId = p["client_id"],
              await state.directory.client(clientId) != nil else { return .html(400, "<h1>Invalid client or redirect</h1>") }
        if r.method == "GET" {
            let hidden = p.sorted { $0.key < $1.key }.map { "<input type=hidden name=\"\(htmlEscape($0.key))\" value=\"\(htmlEscape($0.value))\">" }.joined()
            return .html(200, "<h1>Oracle Access Management</h1><form method=post action=\"\(base)\(r.path)\">\(hidden)<p><label>User <input name=username></label></p><p><label>Password <input name=password type=password></label></p><p><button>Sign in</button></p></form>")
        }
        guard let user = await state.directory.user(p["username"] ?? ""), user.password == p["password"] else {
            return .html(200, "<h1>Oracle Access Management</h1><p>Invalid credentials.</p>")
        }
        let code = TokenMinter.opaque("oamcode")
        await state.addCode(code, .init(user: user.username, clientId: clientId, redirectURI: redirect, challenge: "",
                                        scopes: (p["scope"] ?? "").split(separator: " ").map(String.init), nonce: nil, tenantSegment: "oam",
                                        expires: await state.now.addingTimeInterval(600), preAuthz: p["oracle_pre_authz_code"]))
        let sep = redirect.contains("?") ? "&" : "?"
        return .redirect(redirect + sep + "code=\(formEscape(code))&state=\(formEscape(p["state"] ?? ""))")
    }

    func profile(_ r: EmulatorRequest) async -> EmulatorResponse {
        guard let t = r.bearer, let g = await state.accessGrant(t), g.audience == "oam", let username = g.user,
              let user = await state.directory.user(username) else {
            return Self.error(401, "invalid_token", "The access token is invalid or expired.")
        }
        return .json(200, ["uid": user.username, "commonname": user.name, "mail": user.username, "sub": user.username, "name": user.name])
    }

    func revoke(_ r: EmulatorRequest) async -> EmulatorResponse {
        if case .failure(let e) = await authenticate(r) { return e.response }
        await state.revokeToken(r.form["token"] ?? "")
        return .json(200, [:])
    }
}
