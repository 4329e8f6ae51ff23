import Foundation
import GRDB
import AuthDeckCore
import AuthDeckVault

/// The tenants the config's providers pin, for the front (`TenantPins`).
extension DeckStore {
    /// The stored record, nil when there is none, it cannot be read or it fails its seal.
    public func tenantPins() throws -> TenantPins? {
        try read { db -> TenantPins? in
            guard let text = try Self.metaText(db, TenantPins.metaKey),
                  let record = TenantPins(encoded: text),
                  let seal = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [TenantPins.sealKey]),
                  (try? box.open(Array(seal), context: SealingContext.tenantPins(record.encoded))) != nil else { return nil }
            return record
        }
    }

    /// Stores `record` when it differs from the stored one (a write only after config edits).
    public func saveTenantPins(_ record: TenantPins) throws {
        guard try tenantPins() != record else { return }
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [TenantPins.metaKey, record.encoded])
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           arguments: [TenantPins.sealKey, Data(try box.seal([], context: SealingContext.tenantPins(record.encoded)))])
        }
    }
}
