import Foundation
import Crypto
import CryptoExtras

/// How Chromium on Linux encrypts cookie values (`os_crypt`): `v10` or `v11`, then
/// AES-128-CBC with a key PBKDF2-HMAC-SHA1(password, "saltysalt", 1 round) and an IV of 16
/// spaces. `v10`'s password is the fixed "peanuts" (no keyring, `--password-store=basic`);
/// `v11`'s is the browser's "Safe Storage" item in the Secret Service.
enum ChromiumCookieCipher {
    /// Why a value could not be decrypted (said to the person, with the cookie's name).
    enum Failure: Error, Equatable {
        /// The value needs the keyring's password, and there is none (the reason why).
        case noKey(String)
        /// Decryption gave no valid value: another key encrypted it.
        case wrongKey
        /// A prefix other than v10/v11 (Windows' DPAPI, a newer scheme).
        case unknownScheme(String)
    }

    static let v10Password = "peanuts"

    /// The AES key derived from a browser password.
    static func key(password: String) throws -> SymmetricKey {
        try KDF.Insecure.PBKDF2.deriveKey(from: Data(password.utf8), salt: Data("saltysalt".utf8), using: .insecureSHA1,
                                          outputByteCount: 16, unsafeUncheckedRounds: 1)
    }

    /// The scheme of an encrypted value (`v10`, `v11`), nil for a value too short to have one.
    static func scheme(of blob: Data) -> String? {
        blob.count >= 3 ? String(decoding: blob.prefix(3), as: UTF8.self) : nil
    }

    /// Decrypts one value. `hostKey` and `hashPrefix` (database meta version 24 and later):
    /// the plaintext starts with SHA-256 of the cookie's host_key, which must match — a value
    /// moved to another host, or decrypted with the wrong key, is refused, never returned.
    static func decrypt(_ blob: Data, key: SymmetricKey, hostKey: String, hashPrefix: Bool) throws(Failure) -> String {
        let body = blob.dropFirst(3)
        guard !body.isEmpty, body.count % 16 == 0, let iv = try? AES._CBC.IV(ivBytes: [UInt8](repeating: 0x20, count: 16)),
              var plain = try? AES._CBC.decrypt(body, using: key, iv: iv) else { throw .wrongKey }
        if hashPrefix {
            guard plain.count >= 32, plain.prefix(32).elementsEqual(SHA256.hash(data: Data(hostKey.utf8))) else { throw .wrongKey }
            plain = plain.dropFirst(32)
        }
        guard let text = String(data: plain, encoding: .utf8) else { throw .wrongKey }
        return text
    }
}
