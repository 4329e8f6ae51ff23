/// AuthDeckCore: the pure heart of authdeck — model, derived states, prune policy, ports.
///
/// Invariants this module keeps:
/// - It imports only the Swift standard library, so every rule here is testable with
///   plain values and a fixed clock.
/// - It never reads the clock: every function that needs "now" takes an `Instant`, and
///   long-lived components receive a `WallClock`.
/// - `AccountState` is derived from credentials + clock + last error on every call and is
///   never stored, so a state cannot go stale in the database.
/// - Only an explicit sign-out or prune deletes credentials; a `transient` error never
///   changes an account's state or makes it a prune candidate.
public enum AuthDeckCore {
    /// The version printed by `authdeck --version` and sent in the User-Agent.
    public static let version = "0.1.0"
}
