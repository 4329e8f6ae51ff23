import GRDB
import AuthDeckPlatform

/// The record that lets the `authdeck` front serve cached tokens (`TokenFastPath`).
extension DeckStore {
    /// The stored record, nil when there is none or it cannot be read.
    public func tokenFastPath() throws -> TokenFastPath? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT CAST(value AS TEXT) FROM meta WHERE key = ?", arguments: [TokenFastPath.metaKey])
        }.flatMap(TokenFastPath.init(encoded:))
    }

    /// Stores `record` when it differs from the stored one (a write only after config edits).
    public func saveTokenFastPath(_ record: TokenFastPath) throws {
        guard try tokenFastPath() != record else { return }
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           arguments: [TokenFastPath.metaKey, record.encoded])
        }
    }
}
