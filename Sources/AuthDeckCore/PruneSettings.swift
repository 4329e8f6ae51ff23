/// Grace periods of the prune policy (config `[prune]`).
public struct PruneSettings: Equatable, Hashable, Sendable {
    /// How long an account may sit with no completed sign-in before it counts as abandoned
    /// (a device-code sign-in in progress must not be pruned under the user's feet).
    public var signInGrace: TimeSpan
    /// How long a rejected renewal is left for the user to fix by signing in.
    public var rejectedGrace: TimeSpan
    /// Accounts unused this long are candidates; nil turns the rule off.
    public var unusedAfter: TimeSpan?

    public init(signInGrace: TimeSpan = .hours(1), rejectedGrace: TimeSpan = .days(14),
                unusedAfter: TimeSpan? = .days(90)) {
        self.signInGrace = signInGrace
        self.rejectedGrace = rejectedGrace
        self.unusedAfter = unusedAfter
    }

    public static let standard = PruneSettings()
}
