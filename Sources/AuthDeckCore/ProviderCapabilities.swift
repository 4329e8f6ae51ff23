

/// What a provider kind can do, so front ends offer only what works and explain the rest.
public struct ProviderCapabilities: Equatable, Sendable {
    public var flows: [SignInFlow]
    public var producesTokens: Bool
    public var producesCookies: Bool
    /// Renewal without a person (refresh token, cookie exchange).
    public var silentRenewal: Bool
    /// The server can be told to revoke at sign-out.
    public var serverRevocation: Bool
    /// A sign-out keeps a registration (OAM: the remembered username and preferences) unless
    /// asked to clear it: the deck offers "sign out and clear the registration" by this, not
    /// by the provider's kind.
    public var keepsRegistration = false

    /// The capabilities of a configured provider (some depend on its options).
    public static func of(_ profile: ProviderProfile) -> ProviderCapabilities {
        switch profile.kind {
        case .azuread:
            return ProviderCapabilities(flows: [.device, .browser, .client, .password, .import], producesTokens: true,
                                        producesCookies: false, silentRenewal: true, serverRevocation: false)
        case .sharepoint:
            // A browser window (`flow = "browser"`) needs neither a linked Azure AD provider nor
            // the legacy mode: the person signs in on the site's own page.
            let legacy = profile.options["mode"] == "legacy"
            let linked = profile.options["azure_provider"] != nil
            return ProviderCapabilities(flows: legacy ? [.password, .browser, .import] : (linked ? [.device, .browser, .import] : [.browser, .import]),
                                        producesTokens: false,
                                        producesCookies: true,
                                        silentRenewal: legacy ? profile.options["remember_password"] == "true" : profile.options["azure_provider"] != nil,
                                        serverRevocation: false)
        case .facebook:
            let hasSecret = profile.clientSecretFile != nil || profile.clientSecretEnv != nil
            return ProviderCapabilities(flows: [.device, .browser], producesTokens: true, producesCookies: false,
                                        silentRenewal: hasSecret, serverRevocation: true)
        case .oam where profile.options["server_type"] == "mobile-social" && profile.options["preset"] == nil:
            // The Mobile and Social REST server type: a password for a user token, nothing else.
            return ProviderCapabilities(flows: [.password], producesTokens: true, producesCookies: false,
                                        silentRenewal: true, serverRevocation: true, keepsRegistration: true)
        case .oam:
            return ProviderCapabilities(flows: [.browser, .password, .client], producesTokens: true, producesCookies: false,
                                        silentRenewal: true, serverRevocation: true, keepsRegistration: true)
        case .oidc:
            // Without client_id the client is registered at the issuer for a person's sign-in:
            // there is no client of its own to sign in as (`--client`).
            return ProviderCapabilities(flows: profile.clientId == nil ? [.device, .browser, .password] : [.device, .browser, .client, .password], producesTokens: true,
                                        producesCookies: false, silentRenewal: true, serverRevocation: true)
        }
    }

    /// Whether `credentials` hold what the provider renews with when there is no refresh token:
    /// the kind's ability alone is not enough (an OAM account signed out keeps no token, and
    /// showing it renewable sent people to a refresh that could only fail).
    /// Looks at which extras exist, never at their values, so sealed summaries answer it too.
    public static func renewsWithoutRefreshToken(_ profile: ProviderProfile, _ credentials: Credentials) -> Bool {
        switch profile.kind {
        case .azuread, .oidc, .oam:
            // `grant` is written only for a client-credentials account, renewed with the client's own secret.
            return credentials.extras["grant"] != nil
        case .sharepoint:
            return profile.options["mode"] == "legacy"
                ? profile.options["remember_password"] == "true" && credentials.extras["legacy.password"] != nil
                    && credentials.extras["legacy.username"] != nil
                : profile.options["azure_provider"] != nil && credentials.extras["azure.account"] != nil
        case .facebook:
            // The app secret exchanges the token held for a long-lived one.
            return (profile.clientSecretFile != nil || profile.clientSecretEnv != nil) && !credentials.accessTokens.isEmpty
        }
    }

    /// Why silent renewal is unavailable, in words, when it is.
    public static func renewalUnavailableReason(_ profile: ProviderProfile) -> String? {
        guard !of(profile).silentRenewal else { return nil }
        switch profile.kind {
        case .facebook: return "Facebook tokens cannot be renewed silently without an app secret"
        case .sharepoint where profile.options["mode"] != "legacy" && profile.options["azure_provider"] == nil:
            return "cookies from a browser sign-in cannot be renewed silently; signing in again opens the browser window"
        case .sharepoint: return profile.options["mode"] == "legacy"
            ? "legacy SharePoint cookies renew silently only with options.remember_password = true"
            : "SharePoint cookies renew silently only through a linked Azure AD provider (options.azure_provider)"
        default: return "\(profile.kind.label) cannot renew silently"
        }
    }
}
