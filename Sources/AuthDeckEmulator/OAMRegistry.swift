import Foundation

/// The OAM mobile client registrations the emulator made (PROVIDERS.md §5, "Mobile client
/// registration"): pre-authz codes, the client assertions issued for them, and what each
/// registration step was sent, for tests to check at the server's side of the wire.
struct OAMRegistry: Sendable {
    struct PreAuthz: Sendable {
        var clientId: String
        var deviceId: String
        var expires: Date
        var used = false
    }

    /// A client assertion: bound to its client, user and device; counted each time it authenticates.
    struct Assertion: Sendable {
        var clientId: String
        var user: String
        var deviceId: String
        var expires: Date
        var revoked = false
        var uses = 0
    }

    /// One registration request as received, without its secrets (password, codes).
    struct Step: Sendable {
        var fields: [String: String]
    }

    static let preAuthzLifetime: TimeInterval = 300

    var preAuthz: [String: PreAuthz] = [:]
    var assertions: [String: Assertion] = [:]
    /// How long a new client assertion lives (`/_admin/oam/client-assertion-lifetime`).
    var lifetime: TimeInterval = 7 * 86_400
    var steps: [Step] = []

    mutating func issuePreAuthz(clientId: String, deviceId: String, now: Date) -> String {
        let code = TokenMinter.opaque("oampreazc")
        preAuthz[code] = PreAuthz(clientId: clientId, deviceId: deviceId, expires: now.addingTimeInterval(Self.preAuthzLifetime))
        return code
    }

    /// Spends a pre-authz code of `clientId`; its device id, or nil when it is unknown, spent or expired.
    mutating func redeemPreAuthz(_ code: String, clientId: String, now: Date) -> String? {
        guard let p = preAuthz[code], !p.used, p.expires > now, p.clientId == clientId else { return nil }
        preAuthz[code]?.used = true
        return p.deviceId
    }

    mutating func issueAssertion(clientId: String, user: String, deviceId: String, now: Date) -> String {
        let value = TokenMinter.opaque("oamclientassertion")
        assertions[value] = Assertion(clientId: clientId, user: user, deviceId: deviceId, expires: now.addingTimeInterval(lifetime))
        return value
    }

    /// The assertion when it still authenticates its client (counted as a use), else nil.
    mutating func use(_ value: String, now: Date) -> Assertion? {
        guard let a = assertions[value], !a.revoked, a.expires > now else { return nil }
        assertions[value]?.uses += 1
        return assertions[value]
    }

    /// Expires or revokes every assertion (of `user`, when given); returns how many.
    mutating func change(user: String?, revoke: Bool, now: Date) -> Int {
        var n = 0
        for (k, a) in assertions where user == nil || a.user.lowercased() == user!.lowercased() {
            if revoke { assertions[k]?.revoked = true } else { assertions[k]?.expires = now.addingTimeInterval(-1) }
            n += 1
        }
        return n
    }

    /// The admin answer: steps and assertions.
    func report(now: Date) -> EmulatorResponse {
        let iso = ISO8601DateFormatter()
        let body: [String: Any] = ["steps": steps.map(\.fields),
                "assertions": assertions.values.sorted { $0.expires < $1.expires }.map {
                    ["client_id": $0.clientId, "user": $0.user, "device_id": $0.deviceId, "expires_at": iso.string(from: $0.expires),
                     "expired": $0.expires <= now, "revoked": $0.revoked, "uses": $0.uses] as [String: Any]
                }]
        return .json(200, body)
    }
}
