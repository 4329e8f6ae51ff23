/// What of the store's schema both binaries rely on: the schema version the front knows, the
/// meta rows it reads, and the "last used" rule it applies as the full binary does.
public enum StoreLayout {
    /// Every migration's name, in order (`StoreMigration`).
    public static let migrations = StoreMigration.allCases.map(\.rawValue)

    /// The schema this code knows, as the store stamps it in SQLite's `PRAGMA user_version`
    /// once every migration has run: their number. The front answers only from a store of
    /// exactly this version — a newer store's columns may mean something else, an older or
    /// unstamped one is authdeck-full's to migrate — and so never reads GRDB's own
    /// `grdb_migrations` table, whose name and shape are GRDB's to change.
    public static let schemaVersion = StoreMigration.allCases.count

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
