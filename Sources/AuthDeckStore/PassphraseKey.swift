import Foundation
import Crypto
import CryptoExtras

/// A wrapping key derived from a passphrase with scrypt, and the parameters that derive it
/// again.
///
/// Why scrypt with these costs: it is memory-hard (32 MiB per guess), so a copied store file
/// cannot be brute-forced on GPUs cheaply, while one derivation takes about 0.1 s per command.
/// The parameters travel with the store (meta `key_params.passphrase`) so they can be raised
/// later without breaking old stores.
public struct PassphraseKey: Equatable, Sendable {
    public var salt: [UInt8]
    public var cost: Int
    public var blockSize: Int
    public var parallelism: Int

    public static let defaultCost = 1 << 15

    /// New parameters with a random 16-byte salt.
    public static func fresh(cost: Int = defaultCost) -> PassphraseKey {
        PassphraseKey(salt: (0..<16).map { _ in UInt8.random(in: 0...255) }, cost: cost, blockSize: 8, parallelism: 1)
    }

    public init(salt: [UInt8], cost: Int, blockSize: Int, parallelism: Int) {
        self.salt = salt
        self.cost = cost
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// Reads `scrypt$N$r$p$<base64 salt>`; a damaged value is an error naming it.
    public init(encoded: String) throws {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "scrypt", let n = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
              n > 1, n & (n - 1) == 0, (1...64).contains(r), (1...16).contains(p),
              let salt = Data(base64Encoded: String(parts[4])), salt.count >= 8 else {
            throw StoreError.keySource(source: "passphrase", detail: "the store's passphrase parameters are damaged (\"\(encoded.prefix(40))\")")
        }
        self.init(salt: Array(salt), cost: n, blockSize: r, parallelism: p)
    }

    public var encoded: String {
        "scrypt$\(cost)$\(blockSize)$\(parallelism)$\(Data(salt).base64EncodedString())"
    }

    /// The 256-bit wrapping key for `passphrase`.
    public func derive(_ passphrase: String) throws -> SymmetricKey {
        let memory = 128 * cost * blockSize * parallelism + (1 << 20)
        do {
            return try KDF.Scrypt.deriveKey(from: Array(passphrase.utf8), salt: salt, outputByteCount: 32,
                                            rounds: cost, blockSize: blockSize, parallelism: parallelism,
                                            maxMemory: memory)
        } catch {
            throw StoreError.keySource(source: "passphrase", detail: "scrypt failed: \(error)")
        }
    }
}
