/// The port for secrets that belong to a provider rather than an account (an imported
/// client certificate and key); sealed like every secret.
public protocol ProviderSecretStore: Sendable {
    func providerSecret(_ name: String, provider: String) throws -> Secret?
    func setProviderSecret(_ value: Secret?, name: String, provider: String) throws
    /// Replaces every secret of `provider` named `prefix…` with `values` in one transaction
    /// (empty `values`: deletes them).
    func replaceProviderSecrets(prefix: String, with values: [String: Secret], provider: String) throws
}
