import AuthDeckCore

/// Maps a config `kind` to its adapter: the one line a new provider adds.
public enum ProviderRegistry {
    public static func adapter(for profile: ProviderProfile, context: AdapterContext) throws -> any ProviderAdapter {
        switch profile.kind {
        case .oidc:
            return try OIDCAdapter(profile: profile, context: context)
        case .azuread:
            return try AzureADAdapter(profile: profile, context: context)
        case .sharepoint, .facebook, .oam:
            throw AuthFailure(.misconfigured, code: "not_supported",
                              remedy: "signing in to \(profile.kind.label) providers is not built yet in this version of authdeck (provider \"\(profile.id)\")")
        }
    }
}
