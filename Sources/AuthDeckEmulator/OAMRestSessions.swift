import Foundation

/// What the Mobile and Social REST service and its WebGates hold (PROVIDERS.md §5, "Mobile and
/// Social REST authentication … and WebGate-protected REST"): user tokens, the request contexts
/// the WebGates handed out in challenges, the access tokens minted for them, and what each call
/// carried — without its secrets — so tests check the wire at the server's side.
struct OAMRestSessions: Sendable {
    /// An OAM session: the user token's user; revoked by logout or the admin API.
    struct UserToken: Sendable {
        var user: String
        var revoked = false
    }

    /// An access token for one WebGate, minted from a user token.
    struct AccessToken: Sendable {
        var user: String
        var webGate: String
        var userToken: String
        /// The WebGate no longer accepts it (`/_admin/oam/rest` `forget-webgate`, or the session ended).
        var refused = false
        var uses = 0
    }

    /// One REST call as received: path, headers and body fields that are not secrets.
    struct Call: Sendable {
        var fields: [String: String]
    }

    /// A WebGate in front of a REST service: its name (the realm's first part) and its path prefix.
    struct WebGate: Sendable {
        var name: String
        var prefix: String
        var level = 2
        /// The challenge's realm: `<WebGateName>:<AuthenticationLevel> <RelativeRESTURL>`.
        var realm: String { "\(name):\(level) \(prefix)" }
    }

    /// The two WebGates the emulator runs, each protecting its own REST service.
    static let webGates = [WebGate(name: "WebGateHR", prefix: "/webgate/hr"),
                           WebGate(name: "WebGatePayroll", prefix: "/webgate/payroll")]
    static func webGate(path: String) -> WebGate? {
        webGates.first { path == $0.prefix || path.hasPrefix($0.prefix + "/") }
    }

    var userTokens: [String: UserToken] = [:]
    var accessTokens: [String: AccessToken] = [:]
    /// Request contexts handed out in challenges, with the WebGate that issued each.
    var contexts: [String: String] = [:]
    var calls: [Call] = []
    /// Per WebGate, the `OAM-Auth` tokens presented to it, counted by the WebGate each was
    /// minted for (`unknown`: not one this server issued): what a test checks to prove one
    /// WebGate's token never reached another.
    var presented: [String: [String: Int]] = [:]

    mutating func issueUserToken(user: String) -> String {
        // `+`, `/` and `=` in the value: the service answers it URL-encoded, as PROVIDERS.md warns.
        let token = TokenMinter.opaque("oamut") + "+/="
        userTokens[token] = UserToken(user: user)
        return token
    }

    func liveUser(_ token: String) -> String? {
        guard let t = userTokens[token], !t.revoked else { return nil }
        return t.user
    }

    mutating func issueContext(webGate: String) -> String {
        let ctx = TokenMinter.opaque("oamctx")
        contexts[ctx] = webGate
        return ctx
    }

    mutating func issueAccessToken(user: String, webGate: String, userToken: String) -> String {
        let token = TokenMinter.opaque("oamat." + webGate)
        accessTokens[token] = AccessToken(user: user, webGate: webGate, userToken: userToken)
        return token
    }

    /// The user when `token` is a live access token for `webGate` (counted as a use), else nil.
    mutating func accept(_ token: String, webGate: String) -> String? {
        presented[webGate, default: [:]][accessTokens[token]?.webGate ?? "unknown", default: 0] += 1
        guard let t = accessTokens[token], !t.refused, t.webGate == webGate, liveUser(t.userToken) != nil else { return nil }
        accessTokens[token]?.uses += 1
        return t.user
    }

    /// Ends a session: the user token and every access token minted from it stop working.
    mutating func end(userToken: String) {
        userTokens[userToken]?.revoked = true
        for (k, t) in accessTokens where t.userToken == userToken { accessTokens[k]?.refused = true }
    }

    /// Revokes every user token (of `user`, when given); returns how many.
    mutating func revokeUserTokens(user: String?) -> Int {
        var n = 0
        for (k, t) in userTokens where !t.revoked && (user == nil || t.user.lowercased() == user!.lowercased()) {
            end(userToken: k)
            n += 1
        }
        return n
    }

    /// The WebGate `name` stops accepting the access tokens it has seen so far; returns how many.
    mutating func forget(webGate name: String) -> Int {
        var n = 0
        for (k, t) in accessTokens where t.webGate == name && !t.refused {
            accessTokens[k]?.refused = true
            n += 1
        }
        return n
    }

    /// The admin answer: calls, counts of tokens by kind and WebGate, and what each WebGate was shown.
    func report() -> EmulatorResponse {
        var byGate: [String: Int] = [:]
        var usesByGate: [String: Int] = [:]
        for t in accessTokens.values {
            byGate[t.webGate, default: 0] += 1
            usesByGate[t.webGate, default: 0] += t.uses
        }
        return .json(200, ["calls": calls.map(\.fields), "user_tokens": userTokens.count,
                           "user_tokens_revoked": userTokens.values.filter(\.revoked).count,
                           "access_tokens": byGate, "access_token_uses": usesByGate, "presented": presented])
    }
}
