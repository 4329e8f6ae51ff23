import AuthDeckCore

/// How long a device sign-in waits for the person: until `--timeout` runs out, or the code
/// expires, whichever comes first.
///
/// Why one type: RFC 8628's poll and Facebook's device login both wait, and each must honour
/// `--timeout` as well as the code's lifetime (15 minutes): one type sleeps only until the
/// earlier of the two and says which one ended the wait.
public struct DeviceWait: Sendable {
    /// When to stop waiting for the person (nil: only the code's expiry counts).
    public let giveUpAt: Instant?
    public let timeout: TimeSpan?

    public init(timeout: TimeSpan?, now: Instant) {
        self.timeout = timeout
        // `now` is whole seconds, up to one behind the real time: a second more, so the wait
        // lasts at least `timeout` (`--timeout 4s` ended after 3.1 s now and then).
        self.giveUpAt = timeout.map { now + $0 + .seconds(1) }
    }

    /// Seconds to sleep before the next poll: `interval`, cut short at the give-up time.
    public func nap(_ interval: Double, now: Instant) -> Double {
        guard let giveUpAt else { return interval }
        return max(0, min(interval, Double((giveUpAt - now).seconds)))
    }

    /// Throws once the give-up time has come: nobody approved within `--timeout`.
    public func check(now: Instant) throws {
        guard let giveUpAt, let timeout, now >= giveUpAt else { return }
        throw SignInTimeout.failure("nobody approved the sign-in", within: timeout)
    }
}
