import AuthDeckCore
import AuthDeckConfig

extension DeckAssessment {
    /// Every account's derived state now, read as summaries (nothing is decrypted): what the
    /// deck, `accounts`, `status` and `watch` show and decide on.
    public static func read(_ store: any AccountStore, config: DeckConfig, now: Instant) throws -> DeckAssessment {
        assess(try store.accountSummaries(includeQuarantined: false), config: config, now: now)
    }

    /// The derived state of account `id` and of those sharing its provider and subject (its
    /// duplicates, which its stale verdict depends on); nothing when it is gone.
    public static func read(_ store: any AccountStore, config: DeckConfig, now: Instant, sharingIdentityWith id: String) throws -> DeckAssessment {
        assess(try store.accountSummaries(sharingIdentityWith: id), config: config, now: now)
    }

    static func assess(_ accounts: consuming [StoredAccount], config: DeckConfig, now: Instant) -> DeckAssessment {
        DeckAssessment(accounts: accounts, configuredProviders: config.knownProviders, statePolicy: config.statePolicy,
                       pruneSettings: config.pruneSettings, now: now)
    }
}
