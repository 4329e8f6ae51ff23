import Foundation
import Crypto
import AuthDeckVault
import AuthDeckCore

/// Seals secrets with AES-256-GCM under the store's data key, bound to a context string.
///
/// The layout is `SealedValue`'s (shared with the front). The context
/// (`authdeck/v1/<table>/<row>/<column>`) is the associated data, so a ciphertext moved to
/// another row or column fails to open.
public struct AESSecretBox: SecretBox {
    let key: SymmetricKey

    public init(key: SymmetricKey) { self.key = key }

    public func seal(_ plaintext: [UInt8], context: String) throws -> [UInt8] {
        guard let sealed = try SealedValue.seal(plaintext, key: key, context: context) else {
            throw StoreError.sealedValueRejected(context: context)
        }
        return sealed
    }

    public func open(_ sealed: [UInt8], context: String) throws -> [UInt8] {
        guard let plain = SealedValue.open(sealed, key: key, context: context) else {
            throw StoreError.sealedValueRejected(context: context)
        }
        return plain
    }

    func sealString(_ secret: Secret, context: String) throws -> Data {
        Data(try seal(Array(secret.exposedValue.utf8), context: context))
    }

    func openString(_ sealed: [UInt8], context: String) throws -> Secret {
        let bytes = try open(sealed, context: context)
        return Secret(String(decoding: bytes, as: UTF8.self))
    }
}
