import Foundation

/// Oracle Access Management OAuth (PROVIDERS.md §5): the 11gR2 Mobile & Social service
/// (`/ms_oauth/…`) and the 12c/14c REST service (`/oauth2/rest/…`).
///
/// Token requests need HTTP Basic client authentication and the identity domain, in the
/// `X-OAUTH-IDENTITY-DOMAIN-NAME` header (any case) or, for 12c, the `identityDomain` query
/// parameter. `grant_type` is accepted in the documented UPPERCASE and the standard
/// lowercase forms. Revocation paths are UNVERIFIED (no primary source): RFC 7009 shape at
/// `…/oauthservice/revoke` and `/oauth2/rest/token/revoke`.
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

    /// Checks client (Basic) and identity domain; returns the client id or an error answer.
    func authenticate(_ r: EmulatorRequest) async -> Result<String, ErrorAnswer> {
        let domain = await state.directory.oamIdentityDomain ?? "DefaultDomain"
        let given = r.headers["x-oauth-identity-domain-name"] ?? r.query["identityDomain"]
        guard let given else { return .failure(ErrorAnswer(Self.error(400, "invalid_request", "The identity domain is missing (X-OAUTH-IDENTITY-DOMAIN-NAME)."))) }
        guard given == domain else { return .failure(ErrorAnswer(Self.error(400, "invalid_request", "Identity domain \(given) was not found."))) }
        guard let (id, secret) = r.basicCredentials, let client = await state.directory.client(id), client.secret == secret else {
            return .failure(ErrorAnswer(Self.error(401, "invalid_client", "Client authentication failed.")))
        }
        return .success(id)
    }

    struct ErrorAnswer: Error { let response: EmulatorResponse; init(_ r: EmulatorResponse) { response = r } }

    func token(_ r: EmulatorRequest) async -> EmulatorResponse {
        let clientId: String
        switch await authenticate(r) {
        case .failure(let e): return e.response
        case .success(let id): clientId = id
        }
        let f = r.form
        let scopes = (f["scope"] ?? "").split(separator: " ").map(String.init)
        let now = await state.now
        let directory = await state.directory
        switch Self.normalise(f["grant_type"] ?? "") {
        case "password":
            guard let user = directory.user(f["username"] ?? ""), user.password == f["password"] else {
                return Self.error(400, "invalid_grant", "Invalid user credentials.")
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
                                        expires: await state.now.addingTimeInterval(600)))
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
