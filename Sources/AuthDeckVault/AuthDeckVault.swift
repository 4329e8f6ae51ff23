/// AuthDeckVault: what the front and authdeck-full must agree on byte for byte — the sealed
/// value layout (AES-256-GCM, associated data naming table, row and column), the key file's
/// format, the migrations the front knows.
///
/// Must not import: GRDB, AuthDeckSQLite — it describes, the store and the front read.
public enum AuthDeckVault {}
