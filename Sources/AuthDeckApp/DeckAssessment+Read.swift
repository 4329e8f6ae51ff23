import AuthDeckCore
import AuthDeckConfig

extension DeckAssessment {
    /// Every account's derived state now, read as summaries (nothing is decrypted): what the
    /// deck, `accounts`, `status` and `watch` show and decide on.
    public static func read(_ store: any AccountStore, config: DeckConfig, now: Instant) throws -> DeckAssessment {
        let profiles = Dictionary(config.providers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Accounts come grouped by provider: the profile is looked up once per run of them.
        var lastId: String?
        var lastProfile: ProviderProfile?
        return DeckAssessment(accounts: try store.accountSummaries(includeQuarantined: false), providers: config.knownProviders,
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
