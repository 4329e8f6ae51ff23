import Foundation
import GRDB
import AuthDeckCore
import AuthDeckVault

/// The record that lets the `authdeck` front answer git's and kubectl's helpers
/// (`HelperFastPath`): the routes and margin of the config file the full binary last read.
extension DeckStore {
    /// The stored record, nil when there is none, it cannot be read or it fails its seal.
    public func helperFastPath() throws -> HelperFastPath? {
        try read { db -> HelperFastPath? in
            guard let text = try Self.metaText(db, HelperFastPath.metaKey),
                  let record = HelperFastPath(encoded: text),
                  let seal = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [HelperFastPath.sealKey]),
                  (try? box.open(Array(seal), context: SealingContext.helperFastPath(record.encoded))) != nil else { return nil }
            return record
        }
    }

    /// Stores the record for a config file of `configIdentity` when it differs from the stored
    /// one (a write only after config edits).
    public func saveHelperFastPath(configIdentity: String, clockSkewSeconds: Int64, routes: [CredentialRoute]) throws {
        let record = HelperFastPath(configIdentity: configIdentity, clockSkewSeconds: clockSkewSeconds, routes: routes)
        guard try helperFastPath() != record else { return }
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           arguments: [HelperFastPath.metaKey, record.encoded])
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           arguments: [HelperFastPath.sealKey, Data(try box.seal([], context: SealingContext.helperFastPath(record.encoded)))])
        }
    }
}
