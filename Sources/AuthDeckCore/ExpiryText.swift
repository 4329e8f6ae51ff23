/// Words for when something expires, relative to now: the countdown of listings and the TUI.
public enum ExpiryText {
    /// `in 12m 04s`, `expired 3h 05m ago`, `no expiry`, or `—` when nothing is known.
    public static func describe(_ expiry: Instant?, now: Instant, neverExpires: Bool = false) -> String {
        guard let expiry else { return neverExpires ? "no expiry" : "—" }
        let delta = expiry - now
        if delta.seconds > 0 { return "in \(delta.compact)" }
        if delta.seconds == 0 { return "expires now" }
        return "expired \(TimeSpan(seconds: -delta.seconds).compact) ago"
    }

    /// `3d 04h ago`, `just now`, `never`: for last-used and last-sign-in columns.
    public static func ago(_ instant: Instant?, now: Instant) -> String {
        guard let instant else { return "never" }
        let delta = now - instant
        return delta.seconds < 60 ? "just now" : "\(delta.compact) ago"
    }
}
