import AuthDeckCore
import AuthDeckVault

/// Each provider's default account (`authdeck use`): the account a bare provider id stands for
/// when the provider has several.
///
/// Why a provider secret: it decides which account's token a script, git or kubectl gets, so
/// it is sealed and bound to its provider like everything else that routes a credential — a
/// writer without the key cannot point `work` at another account.
extension DeckStore {
    static let defaultAccountName = StoreLayout.defaultAccountSecret

    /// The default account id of `provider`, if one is set.
    public func defaultAccount(provider: String) throws -> String? {
        try providerSecret(Self.defaultAccountName, provider: provider)?.exposedValue
    }

    /// Sets (or, with nil, clears) `provider`'s default account.
    public func setDefaultAccount(_ id: String?, provider: String) throws {
        try setProviderSecret(id.map { Secret($0) }, name: Self.defaultAccountName, provider: provider)
    }

    /// Every provider's default account id, by provider.
    public func defaultAccounts(providers: [String]) throws -> [String: String] {
        var out: [String: String] = [:]
        for provider in providers { out[provider] = try defaultAccount(provider: provider) }
        return out
    }
}
