import AuthDeckCore
import AuthDeckPlatform

/// The record that lets the `authdeck` front serve cached tokens (`TokenFastPath`).
extension DeckStore {
    /// The stored record, nil when there is none, it cannot be read or it fails its seal.
    public func tokenFastPath() throws -> TokenFastPath? {
        try sealedMeta(TokenFastPath.metaKey, seal: TokenFastPath.sealKey, parse: TokenFastPath.init(encoded:)) {
            SealingContext.fastPath($0.encoded)
        }
    }

    /// Stores `record` when it differs from the stored one (a write only after config edits).
    public func saveTokenFastPath(_ record: TokenFastPath) throws {
        guard try tokenFastPath() != record else { return }
        try saveSealedMeta(record.encoded, at: TokenFastPath.metaKey, seal: TokenFastPath.sealKey, context: SealingContext.fastPath(record.encoded))
    }
}
