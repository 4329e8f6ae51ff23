import Foundation
import Crypto
import CryptoExtras

/// The Microsoft identity platform v2.0 endpoints (PROVIDERS.md §1), under `/{tenant}/`.
struct AzureRoutes: Sendable {
    let state: EmulatorState
    let minter: TokenMinter
    /// `http://127.0.0.1:PORT`, standing in for `https://login.microsoftonline.com`.
    let base: String

    static let multiTenant: Set<String> = ["common", "organizations", "consumers"]

    /// Routes `/{tenant}/…`; nil when the path is not an Azure path.
    func handle(_ r: EmulatorRequest, tenantSegment: String, rest: String) async -> EmulatorResponse? {
        let now = await state.now
        let directory = await state.directory
        guard Self.multiTenant.contains(tenantSegment.lowercased()) || directory.tenant(tenantSegment) != nil else {
            return .aad(AADError(status: 400, error: "invalid_request", code: 90002, description: "Tenant '\(tenantSegment)' not found."), now: now)
        }
        switch (r.method, rest) {
        case ("GET", "v2.0/.well-known/openid-configuration"):
            return .json(200, discovery(tenantSegment))
        case ("GET", "discovery/v2.0/keys"):
            return .json(200, minter.jwks)
        case ("POST", "oauth2/v2.0/devicecode"):
            return await deviceCode(r, tenantSegment: tenantSegment)
        case ("POST", "oauth2/v2.0/token"):
            if let forced = await state.takeForced(path: "/oauth2/v2.0/token") { return forcedResponse(forced, now: now) }
            return await token(r, tenantSegment: tenantSegment)
        case ("GET", "oauth2/v2.0/authorize"):
            return authorizePage(r.query, tenantSegment: tenantSegment, error: nil)
        case ("POST", "oauth2/v2.0/authorize"):
            return await authorizeSubmit(r.form, tenantSegment: tenantSegment)
        default:
            return nil
        }
    }

    func forcedResponse(_ f: EmulatorState.ForcedFailure, now: Date) -> EmulatorResponse {
        if let code = f.aadsts { return .aad(.forced(code), now: now) }
        let status = f.status ?? 503
        return .html(status, "<h1>Service unavailable</h1><p>Forced by the emulator.</p>")
    }

    func issuer(_ tid: String) -> String { "\(base)/\(tid)/v2.0" }

    func discovery(_ tenantSegment: String) -> [String: Any] {
        let t = tenantSegment
        return [
            "issuer": Self.multiTenant.contains(t) ? "\(base)/{tenantid}/v2.0" : issuer(t),
            "authorization_endpoint": "\(base)/\(t)/oauth2/v2.0/authorize",
            "token_endpoint": "\(base)/\(t)/oauth2/v2.0/token",
            "device_authorization_endpoint": "\(base)/\(t)/oauth2/v2.0/devicecode",
            "jwks_uri": "\(base)/\(t)/discovery/v2.0/keys",
            "response_types_supported": ["code", "id_token", "code id_token", "id_token token"],
            "id_token_signing_alg_values_supported": ["RS256"],
        ]
    }

    // MARK: Device code

    func deviceCode(_ r: EmulatorRequest, tenantSegment: String) async -> EmulatorResponse {
        let now = await state.now
        let f = r.form
        guard let clientId = f["client_id"], await state.directory.client(clientId) != nil else {
            return .aad(.unknownClient, now: now)
        }
        let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        let userCode = String((0..<9).map { _ in letters[Int.random(in: 0..<letters.count)] })
        let device = EmulatorState.Device(deviceCode: TokenMinter.opaque("dc"), userCode: userCode, clientId: clientId,
                                          scopes: (f["scope"] ?? "").split(separator: " ").map(String.init),
                                          tenantSegment: tenantSegment, expires: now.addingTimeInterval(await state.deviceCodeLifetime), interval: 1)
        await state.addDevice(device)
        let uri = "\(base)/devicelogin"
        return .json(200, [
            "device_code": device.deviceCode, "user_code": userCode, "verification_uri": uri,
            "expires_in": Int(await state.deviceCodeLifetime), "interval": 1,
            "message": "To sign in, use a web browser to open the page \(uri) and enter the code \(userCode) to authenticate.",
        ])
    }

    // MARK: Token endpoint

    func token(_ r: EmulatorRequest, tenantSegment: String) async -> EmulatorResponse {
        let now = await state.now
        let f = r.form
        let directory = await state.directory
        let clientId = f["client_id"] ?? r.basicCredentials?.0 ?? ""
        guard let client = directory.client(clientId) else { return .aad(.unknownClient, now: now) }
        let grant = f["grant_type"] ?? ""
        if let failure = authenticate(client, r, form: f, grant: grant, tenantSegment: tenantSegment) { return .aad(failure, now: now) }
        let scopes = (f["scope"] ?? "").split(separator: " ").map(String.init)
        let clientInfo = f["client_info"] == "1"
        switch grant {
        case "urn:ietf:params:oauth:grant-type:device_code":
            let (device, tooFast) = await state.poll(deviceCode: f["device_code"] ?? "")
            guard let device, device.clientId == clientId else { return .aad(.badCode, now: now) }
            if device.expires <= now { return .aad(.expiredCode, now: now) }
            if device.denied { return .aad(.declined, now: now) }
            guard let user = device.approvedBy.flatMap(directory.user) else {
                await state.answeredNotYet(deviceCode: device.deviceCode, slowDown: tooFast)
                return .aad(tooFast ? .slowDown : .pending, now: now)
            }
            await state.consumeDevice(device.deviceCode)
            return await issue(user: user, client: client, scopes: device.scopes, tenantSegment: device.tenantSegment,
                               nonce: nil, clientInfo: clientInfo)
        case "authorization_code":
            guard let code = await state.redeem(code: f["code"] ?? ""), code.clientId == clientId else {
                return .aad(.rtInvalid, now: now)
            }
            if code.redeemed { return .aad(.codeRedeemed, now: now) }
            if code.expires <= now { return .aad(.rtRevoked, now: now) }
            guard f["redirect_uri"] == code.redirectURI else {
                return .aad(AADError(status: 400, error: "invalid_grant", code: 50011,
                                     description: "The redirect URI specified in the request does not match."), now: now)
            }
            let challenge = b64(Data(SHA256.hash(data: Data((f["code_verifier"] ?? "").utf8))))
            guard challenge == code.challenge else { return .aad(.pkceMismatch, now: now) }
            guard let user = directory.user(code.user) else { return .aad(.badPassword, now: now) }
            return await issue(user: user, client: client, scopes: scopes.isEmpty ? code.scopes : scopes,
                               tenantSegment: code.tenantSegment, nonce: code.nonce, clientInfo: clientInfo)
        case "refresh_token":
            let (found, reused) = await state.redeemRefresh(f["refresh_token"] ?? "")
            guard let g = found, g.clientId == clientId else { return .aad(.rtInvalid, now: now) }
            if reused { return .aad(.rtInvalid, now: now) }
            if g.revoked || g.expires <= now { return .aad(.rtRevoked, now: now) }
            guard let user = g.user.flatMap(directory.user) else { return .aad(.rtInvalid, now: now) }
            return await issue(user: user, client: client, scopes: scopes.isEmpty ? g.scopes : scopes,
                               tenantSegment: g.tenant, nonce: nil, clientInfo: clientInfo, parent: f["refresh_token"])
        case "password":
            guard let user = directory.user(f["username"] ?? ""), user.password == f["password"] else {
                return .aad(.badPassword, now: now)
            }
            return await issue(user: user, client: client, scopes: scopes, tenantSegment: tenantSegment, nonce: nil, clientInfo: clientInfo)
        case "client_credentials":
            guard scopes.count == 1, scopes[0].hasSuffix("/.default") else {
                return .aad(AADError(status: 400, error: "invalid_scope", code: 1002012,
                                     description: "The provided value for scope is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier."), now: now)
            }
            let tid = directory.tenant(tenantSegment)?.id ?? client.tenant ?? EmulatorDirectory.contoso
            let expires = now.addingTimeInterval(await state.accessTokenLifetime)
            let at = await state.issueAccess(.init(user: nil, clientId: clientId, scopes: scopes, expires: expires,
                                                   audience: String(scopes[0].dropLast("/.default".count)), tenant: tid))
            let lifetime = Int(await state.accessTokenLifetime)
            return .json(200, ["token_type": "Bearer", "expires_in": lifetime, "ext_expires_in": lifetime, "access_token": at])
        default:
            return .aad(.unsupportedGrant, now: now)
        }
    }

    /// Confidential clients must prove themselves: a secret (post or Basic) or a signed
    /// assertion whose `x5t#S256` names their certificate.
    func authenticate(_ client: EmulatorDirectory.Client, _ r: EmulatorRequest, form f: [String: String], grant: String,
                      tenantSegment: String) -> AADError? {
        if let assertion = f["client_assertion"] {
            guard f["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                  let certPEM = client.certificatePEM, let keyPEM = client.publicKeyPEM else { return .badAssertion }
            return verifyAssertion(assertion, clientId: client.id, certificatePEM: certPEM, publicKeyPEM: keyPEM,
                                   audience: "\(base)/\(tenantSegment)/oauth2/v2.0/token") ? nil : .badAssertion
        }
        guard let secret = client.secret else { return nil }  // a public client
        let given = f["client_secret"] ?? r.basicCredentials?.1
        return given == secret ? nil : .badSecret
    }

    func verifyAssertion(_ jwt: String, clientId: String, certificatePEM: String, publicKeyPEM: String, audience: String) -> Bool {
        let parts = jwt.split(separator: ".").map(String.init)
        guard parts.count == 3, let h = unb64(parts[0]), let c = unb64(parts[1]), let s = unb64(parts[2]),
              let header = try? JSONSerialization.jsonObject(with: h) as? [String: Any],
              let claims = try? JSONSerialization.jsonObject(with: c) as? [String: Any],
              let key = try? _RSA.Signing.PublicKey(pemRepresentation: publicKeyPEM) else { return false }
        let der = Data(base64Encoded: certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()) ?? Data()
        guard header["x5t#S256"] as? String == b64(Data(SHA256.hash(data: der))) else { return false }
        let padding: _RSA.Signing.Padding = (header["alg"] as? String) == "PS256" ? .PSS : .insecurePKCS1v1_5
        guard key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: s),
                                   for: SHA256.hash(data: Data((parts[0] + "." + parts[1]).utf8)), padding: padding) else { return false }
        let exp = (claims["exp"] as? NSNumber)?.doubleValue ?? 0
        return claims["aud"] as? String == audience && claims["iss"] as? String == clientId && claims["sub"] as? String == clientId
            && exp > Date().timeIntervalSince1970 - 300
    }

    /// A token response for a user: access token, refresh token with `offline_access`,
    /// id_token with `openid`, `client_info` when asked.
    func issue(user: EmulatorDirectory.User, client: EmulatorDirectory.Client, scopes: [String], tenantSegment: String,
               nonce: String?, clientInfo: Bool, parent: String? = nil) async -> EmulatorResponse {
        let now = await state.now
        // A user signs in to their home tenant; a pinned tenant of another tenant is refused.
        if !Self.multiTenant.contains(tenantSegment.lowercased()),
           let pinned = await state.directory.tenant(tenantSegment), pinned.id != user.tenant {
            return .aad(AADError(status: 400, error: "invalid_grant", code: 50020,
                                 description: "User account '\(user.username)' from identity provider does not exist in tenant."), now: now)
        }
        let lifetime = await state.accessTokenLifetime
        let resourceScopes = scopes.filter { !["openid", "profile", "offline_access", "email"].contains($0) }
        let granted = resourceScopes.isEmpty ? ["https://graph.microsoft.com/User.Read"] : resourceScopes
        let audience = granted.first.map { s -> String in
            guard let u = URL(string: s), let host = u.host, let scheme = u.scheme else { return "https://graph.microsoft.com" }
            return "\(scheme)://\(host)"
        } ?? "https://graph.microsoft.com"
        let at = await state.issueAccess(.init(user: user.username, clientId: client.id, scopes: granted,
                                               expires: now.addingTimeInterval(lifetime), audience: audience, tenant: user.tenant))
        var body: [String: Any] = ["token_type": "Bearer", "scope": granted.joined(separator: " "),
                                   "expires_in": Int(lifetime), "ext_expires_in": Int(lifetime), "access_token": at]
        if scopes.contains("offline_access") {
            let rtLifetime = await state.refreshTokenLifetime
            body["refresh_token"] = await state.issueRefresh(.init(user: user.username, clientId: client.id, scopes: scopes,
                                                                   expires: now.addingTimeInterval(rtLifetime),
                                                                   audience: audience, tenant: tenantSegment, parent: parent))
        }
        if scopes.contains("openid") {
            var claims: [String: Any] = [
                "aud": client.id, "iss": issuer(user.tenant), "iat": Int(now.timeIntervalSince1970),
                "nbf": Int(now.timeIntervalSince1970), "exp": Int(now.timeIntervalSince1970 + 3600),
                "name": user.name, "oid": user.oid, "preferred_username": user.username,
                "sub": b64(Data(SHA256.hash(data: Data((user.oid + client.id).utf8))).prefix(24)),
                "tid": user.tenant, "ver": "2.0",
            ]
            if let nonce { claims["nonce"] = nonce }
            body["id_token"] = (try? minter.jwt(claims)) ?? ""
        }
        if clientInfo {
            body["client_info"] = b64((try? JSONSerialization.data(withJSONObject: ["uid": user.oid, "utid": user.tenant], options: [.sortedKeys])) ?? Data())
        }
        return .json(200, body)
    }

    // MARK: Authorization code (a minimal sign-in and consent page)

    func authorizePage(_ q: [String: String], tenantSegment: String, error: String?) -> EmulatorResponse {
        guard let redirect = q["redirect_uri"], Self.isLoopback(redirect) else {
            return .html(400, "<h1>AADSTS50011</h1><p>The redirect URI must be a loopback http URI.</p>")
        }
        let hidden = q.sorted { $0.key < $1.key }.map { "<input type=hidden name=\"\(htmlEscape($0.key))\" value=\"\(htmlEscape($0.value))\">" }.joined()
        return .html(200, """
            <h1>Sign in</h1>\(error.map { "<p style=color:red>\(htmlEscape($0))</p>" } ?? "")
            <form method=post action="\(base)/\(tenantSegment)/oauth2/v2.0/authorize">\(hidden)
            <p><label>Email <input name=login autofocus></label></p>
            <p><label>Password <input name=passwd type=password></label></p>
            <p>This app wants: \(htmlEscape(q["scope"] ?? ""))</p>
            <p><button name=consent value=yes>Accept</button> <button name=consent value=no>Cancel</button></p></form>
            """)
    }

    func authorizeSubmit(_ f: [String: String], tenantSegment: String) async -> EmulatorResponse {
        guard let redirect = f["redirect_uri"], Self.isLoopback(redirect), let clientId = f["client_id"],
              await state.directory.client(clientId) != nil else {
            return .html(400, "<h1>AADSTS700016</h1><p>Unknown application or redirect.</p>")
        }
        let state = f["state"] ?? ""
        let sep = redirect.contains("?") ? "&" : "?"
        if f["consent"] == "no" {
            return .redirect(redirect + sep + "error=access_denied&error_description=\(formEscape("AADSTS65004: User declined to consent."))&state=\(formEscape(state))")
        }
        guard let user = await self.state.directory.user(f["login"] ?? ""), user.password == f["passwd"] else {
            return authorizePage(f, tenantSegment: tenantSegment, error: "Your account or password is incorrect.")
        }
        guard f["code_challenge_method"] == "S256", let challenge = f["code_challenge"] else {
            return .redirect(redirect + sep + "error=invalid_request&error_description=\(formEscape("AADSTS9002325: Proof Key for Code Exchange is required."))&state=\(formEscape(state))")
        }
        let code = TokenMinter.opaque("code")
        let now = await self.state.now
        await self.state.addCode(code, .init(user: user.username, clientId: clientId, redirectURI: redirect, challenge: challenge,
                                             scopes: (f["scope"] ?? "").split(separator: " ").map(String.init), nonce: f["nonce"],
                                             tenantSegment: tenantSegment, expires: now.addingTimeInterval(600)))
        return .redirect(redirect + sep + "code=\(formEscape(code))&state=\(formEscape(state))")
    }

    static func isLoopback(_ uri: String) -> Bool {
        guard let u = URL(string: uri), u.scheme == "http", let host = u.host else { return false }
        return host == "localhost" || host == "127.0.0.1"
    }
}
