/// An account the prune policy would remove, and why.
public struct PruneCandidate: Equatable, Hashable, Sendable {
    public var account: Account
    public var reason: PruneReason

    public init(account: Account, reason: PruneReason) {
        self.account = account
        self.reason = reason
    }
}
