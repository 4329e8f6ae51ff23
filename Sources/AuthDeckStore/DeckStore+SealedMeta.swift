import Foundation
import GRDB

/// A record the `authdeck` front reads from the meta table without the full binary
/// (`TokenFastPath`, `HelperFastPath`, `TenantPins`): its text under one key, and a seal under
/// another — an empty value sealed with the record's text as associated data, so a writer
/// without the key can delete it but not edit, copy or replay it. One reader and one writer for
/// the three.
extension DeckStore {
    /// The record at `key`, nil when there is none, it does not parse or its seal does not open.
    /// - Parameter context: the sealing context of the record's encoded text.
    func sealedMeta<Record>(_ key: String, seal sealKey: String, parse: (String) -> Record?,
                            context: (Record) -> String) throws -> Record? {
        try read { db -> Record? in
            guard let text = try Self.metaText(db, key), let record = parse(text),
                  let seal = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [sealKey]),
                  (try? box.open(Array(seal), context: context(record))) != nil else { return nil }
            return record
        }
    }

    /// Stores `encoded` at `key` with its seal at `sealKey`, in one transaction.
    func saveSealedMeta(_ encoded: String, at key: String, seal sealKey: String, context: String) throws {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, encoded])
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           arguments: [sealKey, Data(try box.seal([], context: context))])
        }
    }
}
