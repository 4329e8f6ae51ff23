#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// The layout of every sealed value in the store, as both binaries read it: one version byte
/// (1), then AES-256-GCM's nonce ‖ ciphertext ‖ tag, its context string the associated data.
///
/// Why here: the front opens access tokens without the store module; one definition keeps
/// the two from drifting apart.
public enum SealedValue {
    public static let version: UInt8 = 1

    /// Nil only if the system's AES-GCM gives no combined form (never for a 12-byte nonce).
    public static func seal(_ plaintext: [UInt8], key: SymmetricKey, context: String) throws -> [UInt8]? {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Array(context.utf8))
        return box.combined.map { [version] + Array($0) }
    }

    /// The plaintext, or nil when the value is of another version, altered, moved to another
    /// context, or sealed under another key.
    public static func open(_ sealed: [UInt8], key: SymmetricKey, context: String) -> [UInt8]? {
        guard sealed.first == version, let box = try? AES.GCM.SealedBox(combined: sealed.dropFirst()),
              let plain = try? AES.GCM.open(box, using: key, authenticating: Array(context.utf8)) else { return nil }
        return Array(plain)
    }
}
