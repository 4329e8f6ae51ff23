/// The provider families authdeck has adapters for; the `kind` key of a `[[provider]]` table.
public enum ProviderKind: String, CaseIterable, Sendable, Codable {
    case azuread
    case sharepoint
    case facebook
    case oam
    case oidc

    /// A short human label for listings.
    public var label: String {
        switch self {
        case .azuread: return "Azure AD"
        case .sharepoint: return "SharePoint"
        case .facebook: return "Facebook"
        case .oam: return "Oracle AM"
        case .oidc: return "OIDC"
        }
    }

    /// The label with its article, for sentences ("an Azure AD account", never "a azuread").
    public var labelWithArticle: String {
        switch self {
        case .azuread, .oam, .oidc: return "an " + label
        case .sharepoint, .facebook: return "a " + label
        }
    }
}
