import AuthDeckCore

/// What a confirmed prune did: why it can differ from its preview is said, not hidden.
public struct PruneOutcome: Sendable {
    /// The accounts moved to the quarantine, with the reason that held when they were moved.
    public var quarantined: [PruneCandidate]
    /// One sentence per previewed account left alone because it changed since the preview
    /// ("oidc/1a2b was signed in again since the preview; kept").
    public var kept: [String]
    /// Accounts whose quarantine had lasted past the retention, deleted for good.
    public var purged: [Account]
    /// Providers whose default account (`authdeck use`) was pruned, with that account's id:
    /// they have no default now.
    public var clearedDefaults: [(provider: String, account: String)]

    public init(quarantined: [PruneCandidate], kept: [String], purged: [Account],
                clearedDefaults: [(provider: String, account: String)] = []) {
        self.quarantined = quarantined
        self.kept = kept
        self.purged = purged
        self.clearedDefaults = clearedDefaults
    }
}
