/// The fields of an agent's answer that the remote commands print, read alike by the front and
/// authdeck-full so the two print the same bytes.
extension AgentMessage {
    /// `expires_at` (Unix seconds) as an instant; nil when absent (no expiry) or unreadable.
    public var expiresAt: Instant? {
        self["expires_at"].flatMap { Int64($0) }.map { Instant(secondsSinceEpoch: $0) }
    }
}
