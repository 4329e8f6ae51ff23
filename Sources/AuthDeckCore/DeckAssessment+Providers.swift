extension DeckAssessment {
    /// Every account's state with the configured providers deciding what renews silently
    /// (`ProviderCapabilities.renewsWithoutRefreshToken`): the one rule for `authdeck-full`,
    /// which passes the config's profiles, and the front, which passes the profiles of its
    /// sealed record (`ProviderProfile.stateRulesView`).
    ///
    /// - Parameter configuredProviders: nil when no config file exists (no provider counts as removed).
    public init(accounts: consuming [StoredAccount], configuredProviders providers: [ProviderProfile]?, statePolicy: StatePolicy,
                pruneSettings: PruneSettings, now: Instant) {
        let profiles = Dictionary((providers ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Accounts come grouped by provider: the profile is looked up once per run of them.
        var lastId: String?
        var lastProfile: ProviderProfile?
        self.init(accounts: accounts, providers: providers, statePolicy: statePolicy, pruneSettings: pruneSettings, now: now,
                  silentRenewal: { stored in
                      if stored.account.providerId != lastId {
                          lastId = stored.account.providerId
                          lastProfile = profiles[stored.account.providerId]
                      }
                      return lastProfile.map { ProviderCapabilities.renewsWithoutRefreshToken($0, stored.credentials) } ?? false
                  })
    }
}
