/// AuthDeckVault: what the front and authdeck-full must agree on byte for byte — the sealed
/// value layout (AES-256-GCM, associated data naming table, row and column), the key file's
/// format, the migrations and the schema version, each table's columns (`AccountColumn`,
/// `AccessTokenColumn`, …) and the queries both binaries run over them (`CredentialQuery`),
/// and the one record of the config the front serves by (`FrontRecord`).
///
/// Must not import: GRDB — it describes and reads through AuthDeckSQLite's statements, which
/// the store runs inside GRDB's transactions and the front on its own connection.
public enum AuthDeckVault {}
