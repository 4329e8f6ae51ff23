import AuthDeckCore

/// A credential the agent handed to a host, as the deck lists it: which host holds a token of
/// which account, and until when.
///
/// Why the deck keeps these: a person who allowed a host should see, afterwards, where the
/// account's tokens are — the store keeps them only as events.
public struct DeckHandOut: Equatable, Sendable {
    public var host: String
    /// The host is the remote's own claim (a plain `ssh -R`), not a name the person typed.
    public var hostClaimed: Bool
    /// The scopes or URL of what was handed over.
    public var audience: String
    /// When what was handed over expires; nil when it has no known expiry.
    public var until: Instant?

    public init(host: String, hostClaimed: Bool, audience: String, until: Instant?) {
        self.host = TerminalText.inert(host)
        self.hostClaimed = hostClaimed
        self.audience = TerminalText.inert(audience)
        self.until = until
    }

    /// Whether the host may still use it at `now` (no known expiry counts as live).
    public func isLive(at now: Instant) -> Bool { until.map { $0 > now } ?? true }

    /// The detail pane's line: "held by buildhost (token openid) — in 42m 10s".
    public func line(now: Instant) -> String {
        let name = hostClaimed ? "\(host), as it says" : host
        let what = audience.isEmpty ? "" : " (\(audience))"
        return "held by \(name)\(what) — \(until.map { ExpiryText.describe($0, now: now) } ?? "no expiry known")"
    }
}
