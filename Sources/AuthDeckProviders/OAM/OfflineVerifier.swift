import Foundation
import Crypto
import CryptoExtras
import AuthDeckCore

/// A salted, slow password verifier for OAM offline sign-in: scrypt (N=2^15, r=8, p=1),
/// never a plain or fast hash, compared in constant time. Stored sealed, as
/// `scrypt$N$r$p$<salt b64>$<hash b64>`.
enum OfflineVerifier {
    static let rounds = 1 << 15, blockSize = 8, parallelism = 1

    static func make(_ password: Secret) throws -> Secret {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        let hash = try derive(password, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        return Secret("scrypt$\(rounds)$\(blockSize)$\(parallelism)$\(salt.base64EncodedString())$\(hash.base64EncodedString())")
    }

    static func verify(_ password: Secret, against verifier: Secret) throws -> Bool {
        let parts = verifier.exposedValue.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt", let n = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
              let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5]) else {
            throw AuthFailure(.misconfigured, code: "bad_verifier", remedy: "the stored offline verifier is damaged; sign in online")
        }
        let actual = try derive(password, salt: salt, rounds: n, blockSize: r, parallelism: p)
        guard actual.count == expected.count else { return false }
        return zip(actual, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func derive(_ password: Secret, salt: Data, rounds: Int, blockSize: Int, parallelism: Int) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(from: Data(password.exposedValue.utf8), salt: salt, outputByteCount: 32, rounds: rounds,
                                           blockSize: blockSize, parallelism: parallelism)
        return key.withUnsafeBytes { Data($0) }
    }
}
