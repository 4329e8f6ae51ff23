import AuthDeckCore

/// Maps a config `kind` to its adapter: the one line a new provider adds.
public enum ProviderRegistry {
    /// - Parameter config: every configured provider, for kinds that build on another
    ///   provider (SharePoint on Azure AD).
    public static func adapter(for profile: ProviderProfile, context: AdapterContext,
                               config: [ProviderProfile] = []) throws -> any ProviderAdapter {
        switch profile.kind {
        case .oidc:
            return try OIDCAdapter(profile: profile, context: context)
        case .azuread:
            return try AzureADAdapter(profile: profile, context: context)
        case .sharepoint:
            return try SharePointAdapter(profile: profile, context: context, providers: config)
        case .facebook:
            return try FacebookAdapter(profile: profile, context: context)
        case .oam:
            return try OAMAdapter(profile: profile, context: context)
        }
    }
}
