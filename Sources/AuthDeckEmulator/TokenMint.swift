import Crypto

/// Mints opaque token strings for the emulator: random, URL-safe, recognisable by prefix.
public struct TokenMint: Sendable {
    public init() {}

    /// A new token like `at.<43 url-safe chars>` whose kind is visible in test output.
    public func mint(prefix: String) -> String {
        let key = SymmetricKey(size: .bits256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let chars = key.withUnsafeBytes { bytes in bytes.map { alphabet[Int($0) & 63] } }
        return prefix + "." + String(chars)
    }
}
