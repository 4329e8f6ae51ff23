import Foundation

/// The knobs tests and `authdeck demo` turn, under `/_admin/` (JSON in, JSON out).
///
/// - `POST /_admin/device/approve` `{"user_code","username"}`, `/_admin/device/deny` `{"user_code"}`
/// - `GET /_admin/devices`: pending device codes with the polls answered "not yet"
///   (`pending_polls`, `slow_downs`): tests and the demo approve only after a person's delay
/// - `POST /_admin/device/slow-down` `{"count"}`: the next N polls of unapproved codes get `slow_down`
/// - `POST /_admin/lifetimes` `{"access_token","refresh_token","cookie","device_code"}` in seconds
/// - `POST /_admin/fail` `{"count","aadsts"|"status"|"fb_code"+"fb_subcode","path"}`: the next N
///   matching requests fail
/// - `POST /_admin/facebook/lifetimes` `{"short","long","code"}`: Facebook token and device-code lifetimes
/// - `POST /_admin/revoke` `{"username"}`: every refresh token, access token and cookie of the user
/// - `POST /_admin/one-use` `{"enabled","grace"}`: refresh tokens become one-use (reuse: AADSTS70000);
///   with `grace`, a spent one still works until the token issued for it is redeemed
/// - `POST /_admin/legacy-auth` `{"blocked"}`: extSTS.srf stops issuing tokens
/// - `POST /_admin/clock` `{"advance"}` in seconds
/// - `POST /_admin/users` `{"count","prefix","password"}`: adds users `<prefix>N@<first tenant's domain>`
///   (benchmarks sign in many distinct accounts)
/// - `POST /_admin/latency` `{"ms"}`: every provider request is answered after this delay, as
///   a provider across the internet would (benchmarks of concurrent renewal)
/// - `POST /_admin/oam/client-assertions` `{"action": "expire"|"revoke", "username"?}`: OAM client
///   assertions (of the user, else all) expire now or are revoked; either is then answered
///   401 `invalid_client`. Answers `{"changed": N}`
/// - `POST /_admin/oam/client-assertion-lifetime` `{"seconds"}`: how long client assertions
///   issued from now on live (default 7 days)
/// - `GET /_admin/oam/registrations`: the registration steps received (`steps`: their
///   non-secret fields, the device id from the profile) and the client assertions issued
///   (`assertions`: client, user, device, expiry, `expired`, `revoked`, `uses`)
/// - `POST /_admin/oam/rest` `{"action": "revoke-user-tokens", "username"?}`: the Mobile and
///   Social server ends the sessions (of the user, else all): their user tokens and the access
///   tokens minted from them are refused. `{"action": "forget-webgate", "webgate": "WebGateHR"}`:
///   that WebGate stops accepting the access tokens issued so far. Answers `{"changed": N}`
/// - `GET /_admin/oam/rest`: the REST calls received (`calls`: their non-secret fields, the
///   service domain and User-Agent), `user_tokens`, `user_tokens_revoked`, and per WebGate the
///   access tokens minted (`access_tokens`), accepted (`access_token_uses`) and presented
///   (`presented`: per WebGate, counts by the WebGate each token was minted for, or `unknown`)
/// - `POST /_admin/oam/rest/registrations` `{"action": "revoke", "username"?}`: the Mobile and
///   Social server stops accepting the client registration handles (of the user, else all).
///   Answers `{"changed": N}`
/// - `GET /_admin/oam/rest/registrations`: the handles issued (`registrations`: application,
///   user, device profile, `revoked`, `deleted`, `uses`), never their values
/// - `GET /_admin/issued`: counts of what was issued, of requests per path (`requests`) and per
///   path and status (`responses`, keyed `GET /api/me 401`)
struct AdminRoutes: Sendable {
    let state: EmulatorState

    func handle(_ r: EmulatorRequest) async -> EmulatorResponse? {
        guard r.path.hasPrefix("/_admin/") else { return nil }
        // A body that is not a JSON object is named, not read as {}: read as {}, a form body
        // such as user_code=…&username=… would fail as "user_code … required".
        guard let body = (try? JSONSerialization.jsonObject(with: r.body.isEmpty ? Data("{}".utf8) : r.body)) as? [String: Any] else {
            return .json(400, ["error": "the body must be a JSON object, such as {\"user_code\":\"ABCD-1234\",\"username\":\"taro@contoso.com\"} "
                                + "(send it with Content-Type: application/json); this one is not"])
        }
        func number(_ k: String) -> Double? { (body[k] as? NSNumber)?.doubleValue }
        switch (r.method, String(r.path.dropFirst("/_admin/".count))) {
        case ("POST", "device/approve"):
            guard let code = body["user_code"] as? String, let user = body["username"] as? String,
                  await state.directory.user(user) != nil else {
                let known = await state.directory.users.map(\.username).joined(separator: ", ")
                return .json(400, ["error": "a JSON body with user_code and a known username is required (known: \(known))"])
            }
            return await state.approve(userCode: code, user: user) ? .json(200, ["approved": code]) : .json(404, ["error": "no such pending code"])
        case ("POST", "device/deny"):
            guard let code = body["user_code"] as? String else { return .json(400, ["error": "user_code is required"]) }
            return await state.deny(userCode: code) ? .json(200, ["denied": code]) : .json(404, ["error": "no such code"])
        case ("GET", "devices"):
            return .json(200, await state.pendingDevices().map {
                ["user_code": $0.userCode, "client_id": $0.clientId, "pending_polls": $0.pendingAnswers, "slow_downs": $0.slowDownAnswers] as [String: Any]
            })
        case ("POST", "device/slow-down"):
            await state.forceSlowDowns(Int(number("count") ?? 1))
            return .json(200, ["ok": true])
        case ("POST", "lifetimes"):
            await state.setLifetimes(access: number("access_token"), refresh: number("refresh_token"), cookie: number("cookie"),
                                     deviceCode: number("device_code"))
            return .json(200, ["ok": true])
        case ("POST", "fail"):
            await state.force(.init(count: Int(number("count") ?? 1), aadsts: number("aadsts").map { Int($0) },
                                    status: number("status").map { Int($0) }, path: body["path"] as? String,
                                    fbCode: number("fb_code").map { Int($0) }, fbSubcode: number("fb_subcode").map { Int($0) }))
            return .json(200, ["ok": true])
        case ("POST", "revoke"):
            guard let user = body["username"] as? String else { return .json(400, ["error": "username is required"]) }
            return .json(200, ["revoked_refresh_tokens": await state.revoke(user: user)])
        case ("POST", "facebook/lifetimes"):
            await state.setFacebookLifetimes(short: number("short"), long: number("long"), code: number("code"))
            return .json(200, ["ok": true])
        case ("POST", "one-use"):
            await state.setOneUse((body["enabled"] as? Bool) ?? true, grace: (body["grace"] as? Bool) ?? false)
            return .json(200, ["ok": true])
        case ("POST", "legacy-auth"):
            await state.setLegacyBlocked((body["blocked"] as? Bool) ?? true)
            return .json(200, ["ok": true])
        case ("POST", "clock"):
            await state.advance(number("advance") ?? 0)
            return .json(200, ["now": ISO8601DateFormatter().string(from: await state.now)])
        case ("POST", "users"):
            let count = Int(number("count") ?? 0)
            guard (1...100_000).contains(count) else { return .json(400, ["error": "count must be 1 to 100000"]) }
            let added = await state.addUsers(count: count, prefix: body["prefix"] as? String ?? "user",
                                             password: body["password"] as? String ?? "bench-pass")
            return .json(200, ["added": added])
        case ("POST", "latency"):
            await state.setLatency(milliseconds: Int(number("ms") ?? 0))
            return .json(200, ["ok": true])
        case ("POST", "oam/client-assertions"):
            let action = body["action"] as? String
            guard action == "expire" || action == "revoke" else { return .json(400, ["error": "action must be \"expire\" or \"revoke\""]) }
            let user = body["username"] as? String
            let changed = await state.withOAM { registry, now in registry.change(user: user, revoke: action == "revoke", now: now) }
            return .json(200, ["changed": changed])
        case ("POST", "oam/client-assertion-lifetime"):
            guard let seconds = number("seconds"), seconds > 0 else { return .json(400, ["error": "seconds must be a positive number"]) }
            await state.withOAM { registry, _ in registry.lifetime = seconds }
            return .json(200, ["ok": true])
        case ("GET", "oam/registrations"):
            return await state.withOAM { registry, now in registry.report(now: now) }
        case ("POST", "oam/rest"):
            let user = body["username"] as? String
            switch body["action"] as? String {
            case "revoke-user-tokens":
                return .json(200, ["changed": await state.withOAMRest { $0.revokeUserTokens(user: user) }])
            case "forget-webgate":
                guard let gate = body["webgate"] as? String, OAMRestSessions.webGates.contains(where: { $0.name == gate }) else {
                    return .json(400, ["error": "webgate must name one of \(OAMRestSessions.webGates.map(\.name).joined(separator: ", "))"])
                }
                return .json(200, ["changed": await state.withOAMRest { $0.forget(webGate: gate) }])
            default:
                return .json(400, ["error": "action must be \"revoke-user-tokens\" or \"forget-webgate\""])
            }
        case ("GET", "oam/rest"):
            return await state.withOAMRest { $0.report() }
        case ("POST", "oam/rest/registrations"):
            guard body["action"] as? String == "revoke" else { return .json(400, ["error": "action must be \"revoke\""]) }
            let user = body["username"] as? String
            return .json(200, ["changed": await state.withOAMRestHandles { $0.revoke(user: user) }])
        case ("GET", "oam/rest/registrations"):
            return await state.withOAMRestHandles { $0.report() }
        case ("GET", "issued"):
            return await state.summary()
        default:
            return .notFound
        }
    }
}
