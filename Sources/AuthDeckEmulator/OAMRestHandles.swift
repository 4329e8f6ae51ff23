import Foundation

/// The client registration handles the Mobile and Social REST service issued (PROVIDERS.md §5,
/// "Client registration (mobile clients)"): one per `register` call, bound to the application
/// (`clientId`) and the user, with the device profile it came with, so tests see at the
/// server's side who registered, how often, and which handle each later call carried.
struct OAMRestHandles: Sendable {
    struct Handle: Sendable {
        var clientId: String
        var user: String
        /// The device profile's claims as received (`hardwareIds` as its key count).
        var profile: [String: String]
        /// Revoked by the admin API: still known, no longer accepted.
        var revoked = false
        /// Deleted by a logout with clearRegistrationHandles.
        var deleted = false
        var uses = 0

        var live: Bool { !revoked && !deleted }
    }

    var handles: [String: Handle] = [:]

    mutating func register(clientId: String, user: String, profile: [String: String]) -> String {
        // `+`, `/` and `=` in the value: answered URL-encoded, as user tokens are.
        let value = TokenMinter.opaque("oamregh") + "+/="
        handles[value] = Handle(clientId: clientId, user: user, profile: profile)
        return value
    }

    /// The handle and application an `X-Idaas-Rest-Authorization: UIDPASSWORD cred="<base64(clientId:handle)>"`
    /// header names, or nil when the header is missing or malformed.
    static func credential(_ header: String?) -> (clientId: String, handle: String)? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].uppercased() == "UIDPASSWORD" else { return nil }
        var value = parts[1].trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("cred=") else { return nil }
        value = String(value.dropFirst(5)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        guard let data = Data(base64Encoded: value), let text = String(data: data, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// What the header's handle is, for the record of a call: `live`, `revoked`, `deleted`,
    /// `unknown`, `wrong-client` (a live handle named with another application) or `malformed`.
    func status(_ header: String?) -> String {
        guard let header else { return "none" }
        guard let cred = Self.credential(header) else { return "malformed" }
        guard let h = handles[cred.handle] else { return "unknown" }
        if h.deleted { return "deleted" }
        if h.revoked { return "revoked" }
        return h.clientId == cred.clientId ? "live" : "wrong-client"
    }

    /// The registration when `header` names a live handle of its own application (counted as a use), else nil.
    mutating func use(_ header: String?) -> Handle? {
        guard status(header) == "live", let value = Self.credential(header)?.handle else { return nil }
        handles[value]?.uses += 1
        return handles[value]
    }

    /// Deletes the live handle `header` names; whether there was one.
    mutating func delete(_ header: String?) -> Bool {
        guard status(header) == "live", let value = Self.credential(header)?.handle else { return false }
        handles[value]?.deleted = true
        return true
    }

    /// Revokes every live handle (of `user`, when given); returns how many.
    mutating func revoke(user: String?) -> Int {
        var n = 0
        for (k, h) in handles where h.live && (user == nil || h.user.lowercased() == user!.lowercased()) {
            handles[k]?.revoked = true
            n += 1
        }
        return n
    }

    /// The admin answer: every handle's application, user, profile and state, never its value.
    func report() -> EmulatorResponse {
        let rows = handles.values.sorted { ($0.user, $0.uses) < ($1.user, $1.uses) }.map {
            ["client_id": $0.clientId, "user": $0.user, "device_profile": $0.profile, "revoked": $0.revoked,
             "deleted": $0.deleted, "uses": $0.uses] as [String: Any]
        }
        return .json(200, ["registrations": rows])
    }
}
