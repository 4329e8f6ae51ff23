/// What the agent handed to a host, or refused it: the detail of an `agent_answered` or
/// `agent_refused` event, never the secret.
///
/// Why a record of its own in the event's detail rather than new columns: the events table is
/// read by both binaries' schema version, and "which hosts hold which tokens until when" is a
/// read over these rows (`AgentHandOuts`), so the detail must come back exactly as written —
/// one `key=value` word a field, values escaped, parsed by `init?(detail:)`.
public struct AgentHandOut: Equatable, Hashable, Sendable {
    /// The host as typed to `authdeck ssh`, or as the remote claims it (`hostClaimed`).
    public var host: String
    public var hostClaimed: Bool
    /// The session (`authdeck ssh`) it came through; nil on the main socket.
    public var session: String?
    /// The account's id (nil for a refusal before an account was known).
    public var accountId: String?
    /// The scopes, or the URL a cookie header or route answer is for.
    public var audience: String
    /// What asked on the remote side (`token`, `git-credential`, …) and the op.
    public var client: String
    public var op: String
    /// When what was handed stops working (nil: no expiry known, or a refusal).
    public var expiresAt: Instant?
    /// Why it was refused (empty for an answer), or how it was allowed (`allow #2`, `once`,
    /// `connection`).
    public var reason: String
    /// The peer's process and user (`SO_PEERCRED`): on a forwarded socket, the ssh daemon's.
    public var peerPid: Int32?
    public var peerUid: UInt32?

    public init(host: String, hostClaimed: Bool, session: String?, accountId: String?, audience: String, client: String, op: String,
                expiresAt: Instant? = nil, reason: String = "", peerPid: Int32? = nil, peerUid: UInt32? = nil) {
        self.host = host
        self.hostClaimed = hostClaimed
        self.session = session
        self.accountId = accountId
        self.audience = audience
        self.client = client
        self.op = op
        self.expiresAt = expiresAt
        self.reason = reason
        self.peerPid = peerPid
        self.peerUid = peerUid
    }

    /// The host as a person reads it: a claimed one says so ("buildhost, as it says").
    public var shownHost: String {
        TerminalText.inert(host) + (hostClaimed ? " (as it says)" : "")
    }

    /// One line for `events` and the deck: who got what for what, until when, or (`refused`)
    /// why not.
    public func sentence(refused: Bool) -> String {
        let what = op == "cookies" ? "a cookie header" : op == "git" || op == "docker" ? "a \(op) credential" : "a token"
        let account = accountId.map { " of \(TerminalText.inert($0))" } ?? ""
        let via = client.isEmpty ? "" : " via \(TerminalText.inert(client))"
        let aud = audience.isEmpty ? "" : " for \(TerminalText.inert(audience))"
        let pid = peerPid.map { " (peer pid \($0)\(peerUid.map { ", uid \($0)" } ?? ""))" } ?? ""
        if refused {
            return "agent refused \(shownHost) \(what)\(account)\(aud)\(via): \(TerminalText.inert(reason))\(pid)"
        }
        let until = expiresAt.map { ", until \($0.iso8601)" } ?? ""
        let how = reason.isEmpty ? "" : " (\(TerminalText.inert(reason)))"
        return "agent handed \(shownHost) \(what)\(account)\(aud)\(via)\(until)\(how)\(pid)"
    }

    /// The event's detail: `key=value` words in a fixed order, each value escaped so a space,
    /// `=`, `%` or a control character in a host name cannot add or split a field.
    public var detail: String {
        var words: [(String, String)] = [("host", host)]
        if hostClaimed { words.append(("claimed", "1")) }
        if let session { words.append(("session", session)) }
        if let accountId { words.append(("account", accountId)) }
        words += [("audience", audience), ("client", client), ("op", op)]
        if let expiresAt { words.append(("expires_at", String(expiresAt.secondsSinceEpoch))) }
        if !reason.isEmpty { words.append(("reason", reason)) }
        if let peerPid { words.append(("pid", String(peerPid))) }
        if let peerUid { words.append(("uid", String(peerUid))) }
        return words.map { "\($0.0)=\(Self.escape($0.1))" }.joined(separator: " ")
    }

    /// Reads a detail `detail` wrote; nil for anything else (a row written by hand, a newer form).
    public init?(detail: String) {
        var fields: [String: String] = [:]
        for word in detail.split(separator: " ") {
            guard let eq = word.firstIndex(of: "="), let value = Self.unescape(word[word.index(after: eq)...]) else { return nil }
            fields[String(word[..<eq])] = value
        }
        guard let host = fields["host"], let audience = fields["audience"], let client = fields["client"], let op = fields["op"] else { return nil }
        self.init(host: host, hostClaimed: fields["claimed"] == "1", session: fields["session"], accountId: fields["account"],
                  audience: audience, client: client, op: op, expiresAt: fields["expires_at"].flatMap(Int64.init).map(Instant.init(secondsSinceEpoch:)),
                  reason: fields["reason"] ?? "", peerPid: fields["pid"].flatMap(Int32.init), peerUid: fields["uid"].flatMap(UInt32.init))
    }

    static func escape(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            if scalar == " " || scalar == "=" || scalar == "%" || scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "%" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func unescape(_ raw: Substring) -> String? {
        var out = String.UnicodeScalarView()
        var scalars = raw.unicodeScalars[...]
        while let c = scalars.first {
            scalars = scalars.dropFirst()
            guard c == "%" else { out.append(c); continue }
            let hex = String(String.UnicodeScalarView(scalars.prefix(2)))
            guard hex.count == 2, let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) else { return nil }
            out.append(s)
            scalars = scalars.dropFirst(2)
        }
        return String(out)
    }
}
