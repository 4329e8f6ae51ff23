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
        let profiles = Dictionary(config.providers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Accounts come grouped by provider: the profile is looked up once per run of them.
        var lastId: String?
        var lastProfile: ProviderProfile?
        return DeckAssessment(accounts: accounts, providers: config.knownProviders,
                              statePolicy: config.statePolicy, pruneSettings: config.pruneSettings, now: now,
                              silentRenewal: { stored in
                                  if stored.account.providerId != lastId {
                                      lastId = stored.account.providerId
                                      lastProfile = profiles[stored.account.providerId]
                                  }
                                  return lastProfile.map { ProviderCapabilities.renewsWithoutRefreshToken($0, stored.credentials) } ?? false
                              })
    }
}
