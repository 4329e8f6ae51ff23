/// The store's migrations, named once, in the order they run: the store registers a body for
/// each (`Schema`, an exhaustive switch over these cases) and the front knows the schema by
/// them (`StoreLayout.schemaVersion`).
///
/// Append-only: a shipped case is never renamed, reordered or removed, since its name is
/// recorded in every store it ran on.
public enum StoreMigration: String, CaseIterable, Sendable {
    case initial = "001-initial"
    case providerSecrets = "002-provider-secrets"
    case accessTokenRequestedScopes = "003-access-token-requested-scopes"
    case sealedMetadata = "004-sealed-metadata"
}
