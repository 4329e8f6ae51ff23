import Crypto
import AuthDeckCore

/// A PKCE verifier and its S256 challenge (RFC 7636); plain is never offered.
public struct PKCE: Equatable, Sendable {
    public let verifier: String
    public let challenge: String
    public var method: String { "S256" }

    /// A fresh verifier of 32 random bytes (43 base64url characters).
    public init() {
        self.init(verifier: Base64URL.random(byteCount: 32))
    }

    public init(verifier: String) {
        self.verifier = verifier
        self.challenge = Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }
}
