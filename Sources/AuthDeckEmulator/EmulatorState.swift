import Foundation

/// Everything the emulator has issued and every knob tests turn, behind one actor.
actor EmulatorState {
    struct Device {
        var deviceCode: String
        var userCode: String
        var clientId: String
        var scopes: [String]
        var tenantSegment: String
        var expires: Date
        var interval: TimeInterval
        var lastPoll: Date?
        var approvedBy: String?
        var denied = false
        /// Polls answered "pending" and "slow down": tests approve only after a person's delay,
        /// never before the client's first poll.
        var pendingAnswers = 0
        var slowDownAnswers = 0
    }

    struct AuthCode {
        var user: String
        var clientId: String
        var redirectURI: String
        var challenge: String
        var scopes: [String]
        var nonce: String?
        var tenantSegment: String
        var expires: Date
        var redeemed = false
        /// OAM's 3-legged registration: the pre-authz code the authorize request carried.
        var preAuthz: String? = nil
    }

    struct Grant {
        var user: String?
        var clientId: String
        var scopes: [String]
        var expires: Date
        var audience: String
        var tenant: String
        var used = false
        var revoked = false
        /// The refresh token this one was issued for (rotation chain).
        var parent: String?
        /// Whether a refresh token issued for this one has been redeemed.
        var successorUsed = false
    }

    func setFacebookLifetimes(short: TimeInterval?, long: TimeInterval?, code: TimeInterval?) {
        if let short { facebookShortLifetime = short }
        if let long { facebookLongLifetime = long }
        if let code { facebookCodeLifetime = code }
    }

    /// Revokes one token (access or refresh), as RFC 7009 does; unknown tokens are fine.
    func revokeToken(_ token: String) {
        refreshTokens[token]?.revoked = true
        accessTokens[token]?.revoked = true
    }

    /// A grant whether or not it has expired (Facebook answers "expired", not "unknown").
    func accessGrantAnyExpiry(_ token: String) -> Grant? { accessTokens[token] }

    // MARK: A container registry (RegistryRoutes)

    /// Registry refresh tokens (for a user) and access tokens issued with them.
    var registryRefresh: [String: String] = [:]
    var registryAccess: Set<String> = []

    func issueRegistryRefresh(user: String) -> String {
        let token = "acr-rt." + UUID().uuidString
        registryRefresh[token] = user
        return token
    }

    func issueRegistryAccess(refresh: String) -> String? {
        guard registryRefresh[refresh] != nil else { return nil }
        let token = "acr-at." + UUID().uuidString
        registryAccess.insert(token)
        return token
    }

    func registryAccessValid(_ token: String) -> Bool { registryAccess.contains(token) }

    /// `DELETE /me/permissions`: every token of the user for the app stops working.
    func revokeFacebook(user: String, app: String) {
        for (k, g) in accessTokens where g.user == user && g.clientId == app { accessTokens[k]?.revoked = true }
    }

    struct ForcedFailure: Codable {
        var count: Int
        var aadsts: Int?
        var status: Int?
        var path: String?
        /// A Facebook error (`code`, `error_subcode`) instead of an AAD one.
        var fbCode: Int?
        var fbSubcode: Int?
    }

    struct LogEntry: Codable {
        var method: String
        var path: String
        var status: Int
        var at: Date
    }

    var directory: EmulatorDirectory
    var clockOffset: TimeInterval = 0
    var accessTokenLifetime: TimeInterval = 3600
    var refreshTokenLifetime: TimeInterval = 90 * 86_400
    var cookieLifetime: TimeInterval = 5 * 3600
    var oneUseRefreshTokens = false
    /// With one-use refresh tokens: a spent token is still accepted until a token issued for
    /// it has been redeemed (a client that crashed before saving its new token can retry).
    var oneUseGrace = false
    var facebookShortLifetime: TimeInterval = 2 * 3600
    var facebookLongLifetime: TimeInterval = 5_183_944
    var facebookCodeLifetime: TimeInterval = 420
    var deviceCodeLifetime: TimeInterval = 900
    /// Polls still to be answered `slow_down` whatever their pace (`/_admin/device/slow-down`).
    var forcedSlowDowns = 0
    var legacyAuthBlocked = false
    /// Milliseconds every provider request waits before it is answered.
    var latencyMilliseconds = 0
    var forced: [ForcedFailure] = []
    var devices: [String: Device] = [:]
    var codes: [String: AuthCode] = [:]
    var accessTokens: [String: Grant] = [:]
    var refreshTokens: [String: Grant] = [:]
    /// Issued SharePoint cookies: value → (user, name, expiry).
    var cookies: [String: (user: String, name: String, expires: Date)] = [:]
    var log: [LogEntry] = []
    /// Compact SAML tokens from extSTS.srf waiting to be exchanged for cookies.
    var samlTokens: [String: String] = [:]
    /// OAM mobile client registrations: pre-authz codes and client assertions.
    var oam = OAMRegistry()
    var oamRest = OAMRestSessions()
    /// Mobile and Social REST client registration handles.
    var oamRestHandles = OAMRestHandles()

    init(directory: EmulatorDirectory) { self.directory = directory }

    var now: Date { Date().addingTimeInterval(clockOffset) }

    func record(_ method: String, _ path: String, _ status: Int) {
        log.append(LogEntry(method: method, path: path, status: status, at: now))
        if log.count > 10_000 { log.removeFirst(log.count - 10_000) }
    }

    /// Takes one forced failure for `path`, if any are queued: Facebook errors only on
    /// Facebook routes, AADSTS errors only on Azure routes, bare HTTP statuses on either.
    func takeForced(path: String, facebook: Bool = false) -> ForcedFailure? {
        guard let i = forced.firstIndex(where: { f in
            f.count > 0 && (f.path == nil || path.contains(f.path!))
                && (facebook ? f.aadsts == nil : f.fbCode == nil)
        }) else { return nil }
        forced[i].count -= 1
        let f = forced[i]
        if forced[i].count == 0 { forced.remove(at: i) }
        return f
    }


    func setLifetimes(access: TimeInterval?, refresh: TimeInterval?, cookie: TimeInterval?, deviceCode: TimeInterval? = nil) {
        if let deviceCode { deviceCodeLifetime = deviceCode }
        if let access { accessTokenLifetime = access }
        if let refresh { refreshTokenLifetime = refresh }
        if let cookie { cookieLifetime = cookie }
    }

    func advance(_ seconds: TimeInterval) { clockOffset += seconds }
    func setOneUse(_ on: Bool, grace: Bool = false) {
        oneUseRefreshTokens = on
        oneUseGrace = grace
    }
    func setLegacyBlocked(_ on: Bool) { legacyAuthBlocked = on }
    func force(_ f: ForcedFailure) { forced.append(f) }

    func revoke(user: String) -> Int {
        var n = 0
        for (k, g) in refreshTokens where g.user?.lowercased() == user.lowercased() && !g.revoked {
            refreshTokens[k]?.revoked = true
            n += 1
        }
        for (k, g) in accessTokens where g.user?.lowercased() == user.lowercased() {
            accessTokens[k]?.expires = .distantPast
        }
        for (k, c) in cookies where c.user.lowercased() == user.lowercased() { cookies[k]?.expires = .distantPast }
        return n
    }

    /// Runs `body` on the OAM registrations at the emulator's clock.
    func withOAM<T: Sendable>(_ body: @Sendable (inout OAMRegistry, Date) -> T) -> T { body(&oam, now) }

    /// Runs `body` on the Mobile and Social REST sessions and WebGate tokens.
    func withOAMRest<T: Sendable>(_ body: @Sendable (inout OAMRestSessions) -> T) -> T { body(&oamRest) }

    /// Runs `body` on the Mobile and Social REST registration handles.
    func withOAMRestHandles<T: Sendable>(_ body: @Sendable (inout OAMRestHandles) -> T) -> T { body(&oamRestHandles) }

    // MARK: Devices and codes

    func addDevice(_ d: Device) { devices[d.deviceCode] = d }

    func device(userCode: String) -> Device? { devices.values.first { $0.userCode == userCode.uppercased() } }

    func approve(userCode: String, user: String) -> Bool {
        guard var d = device(userCode: userCode), d.expires > now else { return false }
        d.approvedBy = user
        devices[d.deviceCode] = d
        return true
    }

    func deny(userCode: String) -> Bool {
        guard var d = device(userCode: userCode) else { return false }
        d.denied = true
        devices[d.deviceCode] = d
        return true
    }

    func pendingDevices() -> [Device] {
        devices.values.filter { $0.approvedBy == nil && !$0.denied && $0.expires > now }.sorted { $0.expires < $1.expires }
    }

    /// Records a poll and says whether it came faster than the interval (RFC 8628 slow_down)
    /// or a forced slow_down is due.
    func poll(deviceCode: String) -> (Device?, tooFast: Bool) {
        guard var d = devices[deviceCode] else { return (nil, false) }
        var tooFast = d.lastPoll.map { now.timeIntervalSince($0) < d.interval - 0.5 } ?? false
        if d.approvedBy == nil, !d.denied, forcedSlowDowns > 0 {
            forcedSlowDowns -= 1
            tooFast = true
        }
        d.lastPoll = now
        devices[deviceCode] = d
        return (d, tooFast)
    }

    /// Counts a poll answered "not yet" and logs it on stderr, so a run shows the pending polls.
    func answeredNotYet(deviceCode: String, slowDown: Bool) {
        guard var d = devices[deviceCode] else { return }
        if slowDown { d.slowDownAnswers += 1 } else { d.pendingAnswers += 1 }
        devices[deviceCode] = d
        let answer = slowDown ? "slow_down" : "authorization_pending"
        FileHandle.standardError.write(Data("authdeck-idp: device code \(d.userCode): \(answer) (poll \(d.pendingAnswers + d.slowDownAnswers))\n".utf8))
    }

    func forceSlowDowns(_ count: Int) { forcedSlowDowns = max(0, count) }

    func consumeDevice(_ deviceCode: String) { devices.removeValue(forKey: deviceCode) }

    func addCode(_ code: String, _ c: AuthCode) { codes[code] = c }

    func redeem(code: String) -> AuthCode? {
        guard var c = codes[code] else { return nil }
        let before = c
        c.redeemed = true
        codes[code] = c
        return before
    }

    // MARK: Tokens

    func issueAccess(_ g: Grant) -> String {
        let token = TokenMinter.opaque("at")
        accessTokens[token] = g
        return token
    }

    func issueRefresh(_ g: Grant) -> String {
        let token = TokenMinter.opaque("rt")
        refreshTokens[token] = g
        return token
    }

    /// Looks up a refresh token for redemption, marking it used in one-use mode.
    func redeemRefresh(_ token: String) -> (Grant?, reused: Bool) {
        guard var g = refreshTokens[token] else { return (nil, false) }
        if g.used && oneUseRefreshTokens && !(oneUseGrace && !g.successorUsed) { return (g, true) }
        g.used = true
        refreshTokens[token] = g
        if let parent = g.parent { refreshTokens[parent]?.successorUsed = true }
        return (g, false)
    }

    func accessGrant(_ token: String) -> Grant? {
        guard let g = accessTokens[token], g.expires > now, !g.revoked else { return nil }
        return g
    }

    func issueCookie(user: String, name: String) -> (String, Date) {
        let value = TokenMinter.opaque(name.lowercased())
        let expires = now.addingTimeInterval(cookieLifetime)
        cookies[value] = (user, name, expires)
        return (value, expires)
    }

    func rememberSAML(_ token: String, user: String) { samlTokens[token] = user }

    func takeSAML(_ token: String) -> String? { samlTokens.removeValue(forKey: token) }

    func cookieValid(_ value: String, name: String) -> String? {
        guard let c = cookies[value], c.name == name, c.expires > now else { return nil }
        return c.user
    }

    func setLatency(milliseconds: Int) { latencyMilliseconds = max(0, min(milliseconds, 10_000)) }

    /// Adds `count` users `<prefix>1@domain`…; returns the usernames.
    func addUsers(count: Int, prefix: String, password: String) -> [String] {
        guard let tenant = directory.tenants.first else { return [] }
        let start = directory.users.count
        let added = (1...count).map { i in
            EmulatorDirectory.User(username: "\(prefix)\(start + i)@\(tenant.domain)", password: password, name: "\(prefix) \(start + i)",
                                   oid: UUID().uuidString.lowercased(), tenant: tenant.id, federated: false)
        }
        directory.users += added
        return added.map(\.username)
    }

    func summary() -> EmulatorResponse {
        func count<T>(_ d: [String: T], _ ok: (T) -> Bool) -> Int { d.values.filter(ok).count }
        var byPath: [String: Int] = [:]
        var byStatus: [String: Int] = [:]
        for e in log {
            byPath["\(e.method) \(e.path)", default: 0] += 1
            byStatus["\(e.method) \(e.path) \(e.status)", default: 0] += 1
        }
        return .json(200, [
            "now": ISO8601DateFormatter().string(from: now),
            "access_tokens": accessTokens.count,
            "refresh_tokens": refreshTokens.count,
            "refresh_tokens_revoked": count(refreshTokens) { $0.revoked },
            "cookies": cookies.count,
            "devices_pending": pendingDevices().count,
            "requests": byPath,
            "responses": byStatus,
            "one_use_refresh_tokens": oneUseRefreshTokens,
            "refresh_tokens_used": count(refreshTokens) { $0.used },
        ])
    }
}
