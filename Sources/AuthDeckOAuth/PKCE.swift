import Crypto
import AuthDeckCore

/// A PKCE verifier and its S256 challenge (RFC 7636); plain is never offered.
public struct PKCE: Equatable, Sendable {
    public let verifier: String
    public let challenge: String
    public var method: String { "S256" }

    /// A fresh verifier of 32 random bytes (43 base64url characters).
    public init() {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }
        self.init(verifier: Base64URL.encode(bytes))
    }

    public init(verifier: String) {
        self.verifier = verifier
        self.challenge = Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }
}
