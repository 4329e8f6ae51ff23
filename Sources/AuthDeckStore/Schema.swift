import GRDB
import AuthDeckVault

/// The store's schema as named, append-only migrations: one body for each of the vault's
/// `StoreMigration` cases, which name them for the front too.
///
/// Never edit a migration that has shipped: add a new one. GRDB runs each in its own
/// transaction and records its name, so a crash mid-migration leaves the previous schema; the
/// last one also stamps `PRAGMA user_version` (`StoreLayout.schemaVersion`), which the front
/// reads instead of GRDB's own table.
enum Schema {
    /// `PRAGMA application_id` of an authdeck store ("ADK1"), so a foreign SQLite file is
    /// recognised and left alone.
    static let applicationID: Int32 = 0x4144_4B31

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        for migration in StoreMigration.allCases {
            m.registerMigration(migration.rawValue) { db in
                try apply(migration, db)
                if migration == StoreMigration.allCases.last { try stampVersion(db) }
            }
        }
        return m
    }

    /// Records in the file's header which schema it holds (`StoreLayout.schemaVersion`), for
    /// the front, which must not read GRDB's private `grdb_migrations` table.
    static func stampVersion(_ db: Database) throws {
        try db.execute(sql: "PRAGMA user_version = \(StoreLayout.schemaVersion)")
    }

    /// The schema change `migration` makes.
    static func apply(_ migration: StoreMigration, _ db: Database) throws {
        switch migration {
        case .initial:
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                CREATE TABLE accounts (
                    id TEXT PRIMARY KEY NOT NULL,
                    provider_id TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    username TEXT NOT NULL,
                    display_name TEXT NOT NULL,
                    realm TEXT,
                    created_at INTEGER NOT NULL,
                    last_sign_in_at INTEGER,
                    last_used_at INTEGER,
                    error_class TEXT,
                    error_code TEXT,
                    error_remedy TEXT,
                    error_at INTEGER,
                    failed_attempts INTEGER NOT NULL DEFAULT 0,
                    quarantined_at INTEGER,
                    quarantine_reason TEXT
                );
                CREATE INDEX accounts_by_subject ON accounts(provider_id, subject);
                CREATE TABLE access_tokens (
                    id TEXT PRIMARY KEY NOT NULL,
                    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    sealed_value BLOB NOT NULL,
                    scopes TEXT NOT NULL,
                    token_type TEXT NOT NULL,
                    obtained_at INTEGER NOT NULL,
                    expires_at INTEGER
                );
                CREATE INDEX access_tokens_by_account ON access_tokens(account_id);
                CREATE TABLE refresh_tokens (
                    account_id TEXT PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    id TEXT NOT NULL,
                    sealed_value BLOB NOT NULL,
                    generation INTEGER NOT NULL,
                    obtained_at INTEGER NOT NULL,
                    expires_at INTEGER
                );
                CREATE TABLE cookies (
                    id TEXT PRIMARY KEY NOT NULL,
                    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    sealed_value BLOB NOT NULL,
                    domain TEXT NOT NULL,
                    path TEXT NOT NULL,
                    expires_at INTEGER,
                    secure INTEGER NOT NULL,
                    http_only INTEGER NOT NULL
                );
                CREATE INDEX cookies_by_account ON cookies(account_id);
                CREATE TABLE id_token_claims (
                    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (account_id, name)
                );
                CREATE TABLE extras (
                    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    sealed_value BLOB NOT NULL,
                    PRIMARY KEY (account_id, name)
                );
                CREATE TABLE events (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    at INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    account_id TEXT,
                    provider_id TEXT,
                    detail TEXT NOT NULL
                );
                CREATE INDEX events_by_time ON events(at);
                CREATE TABLE leases (
                    account_id TEXT PRIMARY KEY NOT NULL,
                    holder TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE TABLE discovery_cache (
                    url TEXT PRIMARY KEY NOT NULL,
                    document TEXT NOT NULL,
                    fetched_at INTEGER NOT NULL
                );
                """)
        case .providerSecrets:
            try db.execute(sql: """
                CREATE TABLE provider_secrets (
                    provider_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    sealed_value BLOB NOT NULL,
                    PRIMARY KEY (provider_id, name)
                );
                """)
        case .accessTokenRequestedScopes:
            // The scopes a token was asked for when not the provider's configured ones (NULL:
            // the configured ones), so `token ACCOUNT` never hands out another audience's token.
            try db.execute(sql: "ALTER TABLE access_tokens ADD COLUMN requested_scopes TEXT")
        case .sealedMetadata:
            // The seal of each account row and cached document (`SealingContext.account`,
            // `.document`): what decides where a secret goes and for whom, authenticated under
            // the data key. Filled by `DeckStore.sealMetadata` when the store is next opened
            // with its key; NULL afterwards means the row was written without the key.
            try db.execute(sql: """
                ALTER TABLE accounts ADD COLUMN seal BLOB;
                ALTER TABLE discovery_cache ADD COLUMN seal BLOB;
                """)
        }
    }
}
