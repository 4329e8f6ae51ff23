import Foundation
import GRDB
import AuthDeckCore
import AuthDeckPlatform

/// The record that lets the `authdeck` front serve cached tokens (`TokenFastPath`).
extension DeckStore {
    /// The stored record, nil when there is none, it cannot be read or it fails its seal.
    public func tokenFastPath() throws -> TokenFastPath? {
        try read { db -> TokenFastPath? in
            guard let text = try Self.metaText(db, TokenFastPath.metaKey),
                  let record = TokenFastPath(encoded: text),
                  let seal = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [TokenFastPath.sealKey]),
                  (try? box.open(Array(seal), context: SealingContext.fastPath(record.encoded))) != nil else { return nil }
            return record
        }
    }

    /// Stores `record` when it differs from the stored one (a write only after config edits).
    public func saveTokenFastPath(_ record: TokenFastPath) throws {
        guard try tokenFastPath() != record else { return }
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           arguments: [TokenFastPath.metaKey, record.encoded])
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           arguments: [TokenFastPath.sealKey, Data(try box.seal([], context: SealingContext.fastPath(record.encoded)))])
        }
    }
}
