import AuthDeckCore

/// What lets the `authdeck` front answer git's and kubectl's helper calls without reading
/// config.toml: the `[[credential]]` routes and the clock-skew margin of the config file as
/// `authdeck-full` last read it, and that file's identity (`TokenFastPath.configIdentity`)
/// taken just before.
///
/// Why a record of its own: the helpers need the routes, which the token record does not
/// carry, and git and kubectl ask on every fetch and every command — the full binary's
/// start-up was most of their wait. The record is stored in the meta table with a seal
/// (`SealingContext.helperFastPath`, an empty value under the data key with the whole record
/// as associated data): a route decides whose token git is given for a URL, so a record
/// written without the key is never believed, and the front serves only while the config file
/// still has the recorded identity.
public struct HelperFastPath: Equatable, Sendable {
    /// The meta-table key of the record; a new format takes a new key.
    public static let metaKey = "fast_helpers.v1"
    /// The meta-table key of the record's seal.
    public static let sealKey = "fast_helpers.v1.seal"

    public var configIdentity: String
    public var clockSkewSeconds: Int64
    /// Every `[[credential]]` entry in file order, with what routing git needs: url, account,
    /// scopes and username (a registry's settings are docker's, which the front leaves alone).
    public var routes: [CredentialRoute]

    public init(configIdentity: String, clockSkewSeconds: Int64, routes: [CredentialRoute]) {
        self.configIdentity = configIdentity
        self.clockSkewSeconds = clockSkewSeconds
        self.routes = routes.map { CredentialRoute(url: $0.url, account: $0.account, scopes: $0.scopes, username: $0.username) }
    }

    /// The stored form: length-prefixed fields (`<UTF-8 length>:<text>`), so no text in a URL,
    /// account or username can be read as another field. A missing username is `-`.
    public var encoded: String {
        var out = Self.field(String(clockSkewSeconds)) + Self.field(configIdentity) + Self.field(String(routes.count))
        for route in routes {
            out += Self.field(route.url) + Self.field(route.account) + (route.username.map { "+" + Self.field($0) } ?? "-")
            out += Self.field(String(route.scopes.count)) + route.scopes.map(Self.field).joined()
        }
        return out
    }

    /// The record of `encoded`, nil for anything that is not exactly one.
    public init?(encoded: String) {
        var reader = FieldReader(bytes: Array(encoded.utf8))
        guard let skew = reader.number(), let identity = reader.field(), let count = reader.number() else { return nil }
        var routes: [CredentialRoute] = []
        for _ in 0..<count {
            guard let url = reader.field(), let account = reader.field() else { return nil }
            var username: String?
            switch reader.take() {
            case UInt8(ascii: "+"): guard let name = reader.field() else { return nil }; username = name
            case UInt8(ascii: "-"): break
            default: return nil
            }
            guard let scopeCount = reader.number() else { return nil }
            var scopes: [String] = []
            for _ in 0..<scopeCount {
                guard let scope = reader.field() else { return nil }
                scopes.append(scope)
            }
            routes.append(CredentialRoute(url: url, account: account, scopes: scopes, username: username))
        }
        guard reader.atEnd else { return nil }
        self.init(configIdentity: identity, clockSkewSeconds: skew, routes: routes)
        // Only the canonical form: what the full binary wrote, never a variant of it.
        guard self.encoded == encoded else { return nil }
    }

    static func field(_ text: String) -> String { "\(text.utf8.count):\(text)" }

    /// Reads `<length>:<text>` fields off the front of a byte string.
    struct FieldReader {
        let bytes: [UInt8]
        var at = 0

        var atEnd: Bool { at == bytes.count }

        mutating func take() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func field() -> String? {
            var length = 0, digits = 0
            while true {
                guard let byte = take() else { return nil }
                if byte == UInt8(ascii: ":"), digits > 0 { break }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 8 else { return nil }
                length = length * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            }
            guard bytes.count - at >= length else { return nil }
            defer { at += length }
            return String(decoding: bytes[at..<at + length], as: UTF8.self)
        }

        /// A field holding a non-negative decimal number.
        mutating func number() -> Int64? {
            guard let text = field(), !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return Int64(text)
        }
    }
}
