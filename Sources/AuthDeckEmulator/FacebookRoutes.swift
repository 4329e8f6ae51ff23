import Foundation
import Crypto

/// Facebook Graph's login and token endpoints (PROVIDERS.md §4), under `/v<N>.0/`.
struct FacebookRoutes: Sendable {
    let state: EmulatorState
    let base: String

    /// Facebook's error body: `{"error":{message,type,code,error_subcode,…,fbtrace_id}}`.
    static func error(_ status: Int, code: Int, subcode: Int?, message: String) -> EmulatorResponse {
        var e: [String: Any] = ["message": message, "type": "OAuthException", "code": code,
                                "fbtrace_id": "A" + String(UInt32.random(in: 0...UInt32.max), radix: 36)]
        if let subcode { e["error_subcode"] = subcode; e["error_user_title"] = "Login failed"; e["error_user_msg"] = message }
        return .json(status, ["error": e])
    }

    static func isVersion(_ s: String) -> Bool { s.hasPrefix("v") && s.hasSuffix(".0") && Int(s.dropFirst().dropLast(2)) != nil }

    func handle(_ r: EmulatorRequest, version: String, rest: String) async -> EmulatorResponse? {
        if let forced = await state.takeForced(path: "/\(rest)", facebook: true) {
            guard let code = forced.fbCode else { return .html(forced.status ?? 503, "<h1>Service unavailable</h1>") }
            return Self.error(400, code: code, subcode: forced.fbSubcode, message: "Forced error \(code)/\(forced.fbSubcode ?? 0).")
        }
        let params = r.method == "GET" || r.method == "DELETE" ? r.query : r.form.merging(r.query) { a, _ in a }
        switch (r.method, rest) {
        case ("POST", "device/login"): return await deviceLogin(params)
        case ("POST", "device/login_status"): return await loginStatus(params)
        case ("GET", "dialog/oauth"): return dialog(params, version: version, error: nil)
        case ("POST", "dialog/oauth"): return await dialogSubmit(params, version: version)
        case ("GET", "oauth/access_token"): return await accessToken(params)
        case ("GET", "debug_token"): return await debugToken(params)
        case ("GET", "me"): return await me(r)
        case ("DELETE", "me/permissions"): return await revoke(r)
        default: return nil
        }
    }

    /// `access_token=APP_ID|CLIENT_TOKEN` (or `APP_ID|APP_SECRET`): the app it names.
    func app(_ token: String?) async -> EmulatorDirectory.FacebookApp? {
        guard let token, let bar = token.firstIndex(of: "|") else { return nil }
        guard let app = await state.directory.facebookApp(String(token[..<bar])) else { return nil }
        let proof = String(token[token.index(after: bar)...])
        return proof == app.clientToken || proof == app.secret ? app : nil
    }

    func deviceLogin(_ p: [String: String]) async -> EmulatorResponse {
        guard let app = await app(p["access_token"]) else { return Self.error(400, code: 190, subcode: nil, message: "Invalid OAuth access token.") }
        let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        let userCode = String((0..<8).map { _ in letters[Int.random(in: 0..<letters.count)] })
        let now = await state.now
        let device = EmulatorState.Device(deviceCode: TokenMinter.opaque("fbdc"), userCode: userCode, clientId: "fb:" + app.id,
                                          scopes: (p["scope"] ?? "public_profile").split(separator: ",").map(String.init),
                                          tenantSegment: "facebook", expires: now.addingTimeInterval(await state.facebookCodeLifetime),
                                          interval: 1)
        await state.addDevice(device)
        return .json(200, ["code": device.deviceCode, "user_code": userCode, "verification_uri": "\(base)/devicelogin",
                           "expires_in": Int(await state.facebookCodeLifetime), "interval": 1])
    }

    func loginStatus(_ p: [String: String]) async -> EmulatorResponse {
        guard let app = await app(p["access_token"]) else { return Self.error(400, code: 190, subcode: nil, message: "Invalid OAuth access token.") }
        let (found, tooFast) = await state.poll(deviceCode: p["code"] ?? "")
        guard let device = found, device.clientId == "fb:" + app.id else {
            return Self.error(400, code: 100, subcode: nil, message: "Invalid code.")
        }
        let now = await state.now
        if device.expires <= now { return Self.error(400, code: 463, subcode: 1_349_152, message: "Device login code expired.") }
        if device.denied { return Self.error(400, code: 31, subcode: 1_349_173, message: "The user declined the login.") }
        guard let username = device.approvedBy, let user = await state.directory.user(username) else {
            await state.answeredNotYet(deviceCode: device.deviceCode, slowDown: tooFast)
            return tooFast ? Self.error(400, code: 17, subcode: 1_349_172, message: "OAuth Device Excessive Polling")
                           : Self.error(400, code: 31, subcode: 1_349_174, message: "User has not yet authorized your application")
        }
        await state.consumeDevice(device.deviceCode)
        let token = await issue(user: user, app: app.id, scopes: device.scopes, longLived: false)
        let lifetime = await state.facebookShortLifetime
        return .json(200, ["access_token": token, "expires_in": Int(lifetime),
                           "data_access_expiration_time": Int(now.timeIntervalSince1970) + 90 * 86_400])
    }

    func issue(user: EmulatorDirectory.User, app: String, scopes: [String], longLived: Bool) async -> String {
        let now = await state.now
        let lifetime = longLived ? await state.facebookLongLifetime : await state.facebookShortLifetime
        return await state.issueAccess(.init(user: user.username, clientId: "fb:" + app, scopes: scopes,
                                             expires: now.addingTimeInterval(lifetime), audience: "graph.facebook.com", tenant: "facebook"))
    }

    func dialog(_ q: [String: String], version: String, error: String?) -> EmulatorResponse {
        guard let redirect = q["redirect_uri"], AzureRoutes.isLoopback(redirect) else {
            return .html(400, "<h1>Can't load URL</h1><p>The redirect_uri is not allowed.</p>")
        }
        let hidden = q.sorted { $0.key < $1.key }.map { "<input type=hidden name=\"\(htmlEscape($0.key))\" value=\"\(htmlEscape($0.value))\">" }.joined()
        return .html(200, """
            <h1>Log in to Facebook</h1>\(error.map { "<p style=color:red>\(htmlEscape($0))</p>" } ?? "")
            <form method=post action="\(base)/\(version)/dialog/oauth">\(hidden)
            <p><label>Email <input name=email autofocus></label></p><p><label>Password <input name=pass type=password></label></p>
            <p><button name=consent value=yes>Continue</button> <button name=consent value=no>Cancel</button></p></form>
            """)
    }

    func dialogSubmit(_ f: [String: String], version: String) async -> EmulatorResponse {
        guard let redirect = f["redirect_uri"], AzureRoutes.isLoopback(redirect), let appId = f["client_id"],
              await state.directory.facebookApp(appId) != nil else { return .html(400, "<h1>Invalid app</h1>") }
        let sep = redirect.contains("?") ? "&" : "?"
        let st = formEscape(f["state"] ?? "")
        if f["consent"] == "no" {
            return .redirect(redirect + sep + "error=access_denied&error_reason=user_denied&error_description=Permissions+error&state=\(st)")
        }
        guard let user = await state.directory.user(f["email"] ?? ""), user.password == f["pass"] else {
            return dialog(f, version: version, error: "The password you've entered is incorrect.")
        }
        let code = TokenMinter.opaque("fbcode")
        await state.addCode(code, .init(user: user.username, clientId: appId, redirectURI: redirect, challenge: f["code_challenge"] ?? "",
                                        scopes: (f["scope"] ?? "public_profile").split(separator: ",").map(String.init), nonce: nil,
                                        tenantSegment: "facebook", expires: await state.now.addingTimeInterval(600)))
        return .redirect(redirect + sep + "code=\(formEscape(code))&state=\(st)")
    }

    /// Code exchange, and `fb_exchange_token` for a long-lived token (needs the app secret).
    func accessToken(_ p: [String: String]) async -> EmulatorResponse {
        guard let appId = p["client_id"], let app = await state.directory.facebookApp(appId) else {
            return Self.error(400, code: 101, subcode: nil, message: "Error validating application. Invalid application ID.")
        }
        if p["grant_type"] == "fb_exchange_token" {
            guard p["client_secret"] == app.secret else {
                return Self.error(400, code: 1, subcode: nil, message: "Error validating client secret.")
            }
            guard let short = p["fb_exchange_token"], let grant = await state.accessGrant(short), let username = grant.user,
                  let user = await state.directory.user(username) else {
                return Self.error(400, code: 190, subcode: 463, message: "Error validating access token: Session has expired.")
            }
            let token = await issue(user: user, app: app.id, scopes: grant.scopes, longLived: true)
            return .json(200, ["access_token": token, "token_type": "bearer", "expires_in": Int(await state.facebookLongLifetime)])
        }
        guard let code = await state.redeem(code: p["code"] ?? ""), !code.redeemed, code.clientId == app.id,
              code.redirectURI == p["redirect_uri"], let user = await state.directory.user(code.user) else {
            return Self.error(400, code: 100, subcode: 36009, message: "This authorization code has been used or is invalid.")
        }
        if !code.challenge.isEmpty {
            let verifier = p["code_verifier"] ?? ""
            let hashed = b64(Data(SHA256.hash(data: Data(verifier.utf8))))
            guard hashed == code.challenge else { return Self.error(400, code: 100, subcode: nil, message: "Invalid code verifier.") }
        } else if p["client_secret"] != app.secret {
            return Self.error(400, code: 1, subcode: nil, message: "Error validating client secret.")
        }
        let token = await issue(user: user, app: app.id, scopes: code.scopes, longLived: false)
        return .json(200, ["access_token": token, "token_type": "bearer", "expires_in": Int(await state.facebookShortLifetime)])
    }

    func debugToken(_ p: [String: String]) async -> EmulatorResponse {
        guard let app = await app(p["access_token"]) else { return Self.error(400, code: 190, subcode: nil, message: "Invalid OAuth access token.") }
        let input = p["input_token"] ?? ""
        guard let grant = await state.accessGrantAnyExpiry(input), grant.clientId == "fb:" + app.id else {
            return .json(200, ["data": ["is_valid": false, "error": ["code": 190, "message": "Invalid OAuth access token."]]])
        }
        let now = await state.now
        let valid = grant.expires > now && !grant.revoked
        let directory = await state.directory
        let user = directory.user(grant.user ?? "")
        var data: [String: Any] = [
            "app_id": app.id, "type": "USER", "application": "authdeck test app", "is_valid": valid,
            "expires_at": Int(grant.expires.timeIntervalSince1970), "data_access_expires_at": Int(now.timeIntervalSince1970) + 90 * 86_400,
            "scopes": grant.scopes, "granular_scopes": [], "user_id": user.map { directory.facebookId($0) } ?? "",
        ]
        if !valid { data["error"] = ["code": 190, "subcode": grant.revoked ? 458 : 463, "message": "Session has expired."] }
        return .json(200, ["data": data])
    }

    func token(_ r: EmulatorRequest) -> String? { r.query["access_token"] ?? r.bearer }

    func me(_ r: EmulatorRequest) async -> EmulatorResponse {
        guard let t = token(r), let grant = await state.accessGrantAnyExpiry(t), grant.clientId.hasPrefix("fb:") else {
            return Self.error(400, code: 190, subcode: nil, message: "Invalid OAuth access token - Cannot parse access token")
        }
        if grant.revoked { return Self.error(400, code: 190, subcode: 458, message: "Error validating access token: The user has not authorized application.") }
        if grant.expires <= (await state.now) { return Self.error(400, code: 190, subcode: 463, message: "Error validating access token: Session has expired.") }
        let directory = await state.directory
        guard let user = directory.user(grant.user ?? "") else { return Self.error(400, code: 190, subcode: 467, message: "Invalid token.") }
        var me: [String: Any] = ["id": directory.facebookId(user), "name": user.name]
        if grant.scopes.contains("email") { me["email"] = user.username }
        return .json(200, me)
    }

    func revoke(_ r: EmulatorRequest) async -> EmulatorResponse {
        guard let t = token(r), let grant = await state.accessGrant(t), let user = grant.user else {
            return Self.error(400, code: 190, subcode: 463, message: "Error validating access token: Session has expired.")
        }
        await state.revokeFacebook(user: user, app: grant.clientId)
        return .json(200, ["success": true])
    }
}
