import AuthDeckCore

/// Where a Microsoft identity platform provider lives, from its config.
///
/// `endpoints.authority` (default `https://login.microsoftonline.com`: sovereign clouds and
/// the emulator override it); `options.tenant` pins the tenant accounts must belong to;
/// `options.authority_tenant` (default: the tenant, else `organizations`) is the path
/// segment used to sign in.
struct AzureADEndpoints: Sendable {
    let authority: String
    let segment: String

    init(_ profile: ProviderProfile) {
        let a = profile.endpoints["authority"] ?? "https://login.microsoftonline.com"
        authority = a.hasSuffix("/") ? String(a.dropLast()) : a
        segment = profile.options["authority_tenant"] ?? profile.options["tenant"] ?? "organizations"
    }

    var token: String { "\(authority)/\(segment)/oauth2/v2.0/token" }
    var deviceCode: String { "\(authority)/\(segment)/oauth2/v2.0/devicecode" }
    var authorize: String { "\(authority)/\(segment)/oauth2/v2.0/authorize" }
    var keys: String { "\(authority)/\(segment)/discovery/v2.0/keys" }
    /// The id_token issuer for a tenant id (v2.0 tokens: `<authority>/<tid>/v2.0`).
    func issuer(tenantId: String) -> String { "\(authority)/\(tenantId)/v2.0" }
}
