import AuthDeckCore
import AuthDeckVault

/// The record that lets the `authdeck` front answer git's and kubectl's helpers
/// (`HelperFastPath`): the routes and margin of the config file the full binary last read.
extension DeckStore {
    /// The stored record, nil when there is none, it cannot be read or it fails its seal.
    public func helperFastPath() throws -> HelperFastPath? {
        try sealedMeta(HelperFastPath.metaKey, seal: HelperFastPath.sealKey, parse: HelperFastPath.init(encoded:)) {
            SealingContext.helperFastPath($0.encoded)
        }
    }

    /// Stores the record for a config file of `configIdentity` when it differs from the stored
    /// one (a write only after config edits).
    public func saveHelperFastPath(configIdentity: String, clockSkewSeconds: Int64, routes: [CredentialRoute]) throws {
        let record = HelperFastPath(configIdentity: configIdentity, clockSkewSeconds: clockSkewSeconds, routes: routes)
        guard try helperFastPath() != record else { return }
        try saveSealedMeta(record.encoded, at: HelperFastPath.metaKey, seal: HelperFastPath.sealKey,
                           context: SealingContext.helperFastPath(record.encoded))
    }
}
