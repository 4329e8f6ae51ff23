/// One configured identity provider: a `[[provider]]` table of config.toml.
///
/// Profiles come from the user's config, not the store, so editing config.toml is how a
/// provider is added, changed or removed; accounts refer to a profile by `id`.
public struct ProviderProfile: Equatable, Hashable, Sendable {
    /// User-chosen slug (`work`, `sp-intranet`), unique within the config.
    public var id: String
    public var kind: ProviderKind
    public var clientId: String?
    public var scopes: [String]
    public var flow: SignInFlow?
    /// Named endpoint URLs (`issuer`, `authority`, `token`, …); adapters know their names.
    public var endpoints: [String: String]
    /// Kind-specific settings (`tenant`, `site`, `identity_domain`, …) as strings.
    public var options: [String: String]
    /// Where the client secret comes from: a file path or an environment variable name —
    /// never the config file itself and never argv.
    public var clientSecretFile: String?
    public var clientSecretEnv: String?
    /// How long before expiry a silently renewable account is renewed by `authdeck watch` and
    /// the open deck (`renew_before`), and when a non-renewable one gets its `on_expiring` notice.
    public var renewBefore: TimeSpan = ProviderProfile.defaultRenewBefore

    /// Five minutes: long enough that a script started just before never sees an expired
    /// token, short enough not to spend refresh tokens for nothing.
    public static let defaultRenewBefore = TimeSpan.minutes(5)

    public init(
        id: String, kind: ProviderKind, clientId: String? = nil, scopes: [String] = [],
        flow: SignInFlow? = nil, endpoints: [String: String] = [:], options: [String: String] = [:],
        clientSecretFile: String? = nil, clientSecretEnv: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.clientId = clientId
        self.scopes = scopes
        self.flow = flow
        self.endpoints = endpoints
        self.options = options
        self.clientSecretFile = clientSecretFile
        self.clientSecretEnv = clientSecretEnv
    }

    /// Tenant values that admit accounts from any tenant, so no realm is "wrong".
    static let multiTenantWords: Set<String> = ["common", "organizations", "consumers"]

    /// The realm (tenant) every account of this provider must have, when the config pins one.
    ///
    /// Only Azure AD and SharePoint pin realms today, through the `tenant` option; the
    /// multi-tenant words (`common`, `organizations`, `consumers`) pin nothing.
    public var expectedRealm: String? {
        guard kind == .azuread || kind == .sharepoint else { return nil }
        guard let tenant = options["tenant"]?.trimmingWhitespace(), !tenant.isEmpty else { return nil }
        return ProviderProfile.multiTenantWords.contains(tenant.lowercased()) ? nil : tenant
    }
}
