import Foundation

/// A compact JWS (header.payload.signature), parsed but not yet trusted.
public struct JWT: Sendable {
    public let header: JSONObject
    public let claims: JSONObject
    /// `base64url(header) + "." + base64url(payload)`: the bytes the signature covers.
    public let signingInput: [UInt8]
    public let signature: [UInt8]

    public var algorithm: String { header.string("alg") ?? "" }

    /// Why a JWT was not even well-formed.
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public init(compact: String) throws {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw FormatError(description: "a JWT has 3 dot-separated parts, this has \(parts.count)") }
        guard let h = Base64URL.decode(String(parts[0])), let header = JSONObject(bytes: h) else {
            throw FormatError(description: "the JWT header is not base64url JSON")
        }
        guard let p = Base64URL.decode(String(parts[1])), let claims = JSONObject(bytes: p) else {
            throw FormatError(description: "the JWT payload is not base64url JSON")
        }
        guard let s = Base64URL.decode(String(parts[2])) else { throw FormatError(description: "the JWT signature is not base64url") }
        self.header = header
        self.claims = claims
        self.signingInput = Array((parts[0] + "." + parts[1]).utf8)
        self.signature = s
    }

    /// Builds and signs a compact JWT with `sign` over the signing input.
    public static func compact(header: [String: Any], claims: [String: Any], sign: ([UInt8]) throws -> [UInt8]) throws -> String {
        let h = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])))
        let c = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])))
        let input = h + "." + c
        return input + "." + Base64URL.encode(try sign(Array(input.utf8)))
    }
}
