import AuthDeckCore
import AuthDeckVault

/// The tenants the config's providers pin, for the front (`TenantPins`).
extension DeckStore {
    /// The stored record, nil when there is none, it cannot be read or it fails its seal.
    public func tenantPins() throws -> TenantPins? {
        try sealedMeta(TenantPins.metaKey, seal: TenantPins.sealKey, parse: TenantPins.init(encoded:)) {
            SealingContext.tenantPins($0.encoded)
        }
    }

    /// Stores `record` when it differs from the stored one (a write only after config edits).
    public func saveTenantPins(_ record: TenantPins) throws {
        guard try tenantPins() != record else { return }
        try saveSealedMeta(record.encoded, at: TenantPins.metaKey, seal: TenantPins.sealKey, context: SealingContext.tenantPins(record.encoded))
    }
}
