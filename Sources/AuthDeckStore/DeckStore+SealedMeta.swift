import Foundation
import GRDB
import AuthDeckVault

/// The records the `authdeck` front reads from the meta table without the full binary
/// (`SealedMetaRecord`: `FrontRecord`, `StatusFastPath`). One reader and one writer for both.
extension DeckStore {
    /// The stored record of type `R`, nil when there is none, it does not parse or its seal
    /// does not open.
    public func sealedRecord<R: SealedMetaRecord>(_: R.Type) throws -> R? {
        try read { db -> R? in
            guard let text = try Self.metaText(db, R.metaKey), let record = R(encoded: text),
                  let seal = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [R.sealKey]),
                  (try? box.open(Array(seal), context: record.sealingContext)) != nil else { return nil }
            return record
        }
    }

    /// Stores `record` with its seal, in one transaction, when it differs from the stored one
    /// (a write only after config edits); the records it replaced go in the same transaction.
    public func saveSealedRecord<R: SealedMetaRecord>(_ record: R) throws {
        guard try sealedRecord(R.self) != record else { return }
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [R.metaKey, record.encoded])
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           arguments: [R.sealKey, Data(try box.seal([], context: record.sealingContext))])
            for key in R.retiredMetaKeys { try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key]) }
        }
    }
}
