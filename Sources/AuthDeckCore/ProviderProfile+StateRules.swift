extension ProviderProfile {
    /// The options state derivation reads: the pinned tenant (`expectedRealm`) and what a
    /// SharePoint provider renews with (`renewsWithoutRefreshToken`).
    public static let stateRuleOptions: Set<String> = ["tenant", "mode", "remember_password", "azure_provider"]

    /// This profile with only what the state rules read: id, kind, those options, and whether
    /// a client secret is configured (where from is not kept).
    ///
    /// Why: the front derives `status --short` from a record `authdeck-full` writes, which
    /// must carry neither endpoints nor secret paths, yet the rules must see what they see in
    /// `authdeck-full` — `renewsWithoutRefreshToken`, `expectedRealm` and `PrunePolicy` agree
    /// on a profile and its view.
    public var stateRulesView: ProviderProfile {
        ProviderProfile(id: id, kind: kind, options: options.filter { Self.stateRuleOptions.contains($0.key) },
                        clientSecretEnv: clientSecretFile != nil || clientSecretEnv != nil ? "configured" : nil)
    }
}
