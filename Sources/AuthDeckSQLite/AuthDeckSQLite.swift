/// AuthDeckSQLite: the one thin wrapper over SQLite's C API (`SQLiteConnection`,
/// `RawStatement`) for the paths where GRDB's start-up shows in `bench/run` — the front's
/// cached-token read and the store's bulk reads.
///
/// Must not import: GRDB, Foundation.
public enum AuthDeckSQLite {}
