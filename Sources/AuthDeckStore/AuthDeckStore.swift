/// AuthDeckStore: authdeck's one SQLite file — schema, migrations, sealing, leases, events.
///
/// Invariants:
/// - The database directory is 0700 and the database file 0600 from the moment they are
///   created (created so, never chmod-ed after the fact); looser modes are reported.
/// - Every secret column holds AES-256-GCM ciphertext whose associated data names its
///   table, row and column; no secret is ever written in clear, in the file or the WAL.
/// - A file at the store path that is not an authdeck database is never written to.
/// - Migrations are named and append-only; each runs in its own transaction.
/// - Every write is one transaction; readers never block writers (WAL).
public enum AuthDeckStore {}
