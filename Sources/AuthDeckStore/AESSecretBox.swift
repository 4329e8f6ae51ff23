import Foundation
import Crypto
import AuthDeckCore

/// Seals secrets with AES-256-GCM under the store's data key, bound to a context string.
///
/// Layout of a sealed value: one version byte (1), then nonce ‖ ciphertext ‖ tag.
/// The context (`authdeck/v1/<table>/<row>/<column>`) is the associated data, so a
/// ciphertext moved to another row or column fails to open.
public struct AESSecretBox: SecretBox {
    let key: SymmetricKey
    static let version: UInt8 = 1

    public init(key: SymmetricKey) { self.key = key }

    public func seal(_ plaintext: [UInt8], context: String) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Array(context.utf8))
        guard let combined = box.combined else { throw StoreError.sealedValueRejected(context: context) }
        return [Self.version] + Array(combined)
    }

    public func open(_ sealed: [UInt8], context: String) throws -> [UInt8] {
        guard sealed.first == Self.version else { throw StoreError.sealedValueRejected(context: context) }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed.dropFirst())
            return Array(try AES.GCM.open(box, using: key, authenticating: Array(context.utf8)))
        } catch {
            throw StoreError.sealedValueRejected(context: context)
        }
    }

    func sealString(_ secret: Secret, context: String) throws -> Data {
        Data(try seal(Array(secret.exposedValue.utf8), context: context))
    }

    func openString(_ data: Data, context: String) throws -> Secret {
        let bytes = try open(Array(data), context: context)
        return Secret(String(decoding: bytes, as: UTF8.self))
    }
}
