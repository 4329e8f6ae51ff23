/// What of the store's schema both binaries rely on: the migrations the front knows, the meta
/// rows it reads, and the "last used" rule it applies as the full binary does.
public enum StoreLayout {
    /// Every migration, in order. The front answers only from a store whose applied migrations
    /// are all in this list: a newer store's columns may mean something else.
    public static let migrations = ["001-initial", "002-provider-secrets", "003-access-token-requested-scopes", "004-sealed-metadata"]

    /// Meta rows: which key source seals the data key, and the data key sealed by each source.
    public static let keySourceKey = "key_source"
    public static func dataKeyKey(_ source: String) -> String { "data_key." + source }

    /// The provider secret naming a provider's default account (`authdeck use`), which both
    /// binaries read when a provider id names several accounts.
    public static let defaultAccountSecret = "default_account"

    /// "Last used" moves at most once a minute: a script calling `token` in a loop writes once.
    public static let lastUsedResolution: Int64 = 60
    /// The update both binaries run (?1 now, ?2 the account id).
    public static let touchSQL = "UPDATE accounts SET last_used_at = ?1 WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at < ?1 - 60)"
}
