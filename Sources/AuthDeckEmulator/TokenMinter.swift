import Foundation
import Crypto
import CryptoExtras

/// Signs the emulator's id_tokens (RS256) and publishes the key as a JWKS.
struct TokenMinter: Sendable {
    let key: _RSA.Signing.PrivateKey
    let kid: String

    init() throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        kid = "emu-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    }

    /// A random opaque token with a readable prefix (`at.`, `rt.`).
    static func opaque(_ prefix: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return prefix + "." + String((0..<40).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
    }

    func jwt(_ claims: [String: Any]) throws -> String {
        let header = b64(try JSONSerialization.data(withJSONObject: ["alg": "RS256", "typ": "JWT", "kid": kid], options: [.sortedKeys]))
        let body = b64(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let input = header + "." + body
        let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + b64(signature.rawRepresentation)
    }

    var jwks: [String: Any] {
        let p = try! key.publicKey.getKeyPrimitives()
        return ["keys": [["kty": "RSA", "use": "sig", "kid": kid, "alg": "RS256", "n": b64(p.modulus), "e": b64(p.publicExponent)]]]
    }
}

func b64(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

func unb64(_ text: String) -> Data? {
    var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    s += String(repeating: "=", count: (4 - s.count % 4) % 4)
    return Data(base64Encoded: s)
}
