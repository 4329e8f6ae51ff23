import Foundation
import Crypto
import CryptoExtras

/// A provider's published signing keys (RFC 7517), and signature checks with them.
public struct JWKSet: Sendable {
    public let keys: [JSONObject]

    public init(keys: [JSONObject]) { self.keys = keys }

    /// Parses a JWKS document; nil when it is not `{"keys":[…]}`.
    public init?(bytes: [UInt8]) {
        guard let json = JSONObject(bytes: bytes), let list = json.array("keys") else { return nil }
        keys = list.compactMap { $0.object.map(JSONObject.init) }
    }

    /// The algorithms authdeck verifies. `none` is not among them, ever.
    public static let asymmetric: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384"]
    public static let symmetric: Set<String> = ["HS256", "HS384", "HS512"]

    /// True when some key (matching `kid` when the token names one) verifies the signature.
    public func verify(_ jwt: JWT) -> Bool {
        let alg = jwt.algorithm
        guard Self.asymmetric.contains(alg) else { return false }
        let kid = jwt.header.string("kid")
        let candidates = keys.filter { key in
            (kid == nil || key.string("kid") == nil || key.string("kid") == kid)
                && (key.string("use") == nil || key.string("use") == "sig")
                && (key.string("alg") == nil || key.string("alg") == alg)
        }
        return candidates.contains { Self.verify(jwt, alg: alg, key: $0) }
    }

    static func verify(_ jwt: JWT, alg: String, key: JSONObject) -> Bool {
        let input = jwt.signingInput
        do {
            switch alg.prefix(2) {
            case "RS", "PS":
                guard key.string("kty") == "RSA", let n = key.string("n").flatMap(Base64URL.decode),
                      let e = key.string("e").flatMap(Base64URL.decode) else { return false }
                let pub = try _RSA.Signing.PublicKey(n: n, e: e)
                let sig = _RSA.Signing.RSASignature(rawRepresentation: jwt.signature)
                let padding: _RSA.Signing.Padding = alg.hasPrefix("PS") ? .PSS : .insecurePKCS1v1_5
                switch alg.suffix(3) {
                case "256": return pub.isValidSignature(sig, for: SHA256.hash(data: input), padding: padding)
                case "384": return pub.isValidSignature(sig, for: SHA384.hash(data: input), padding: padding)
                case "512": return pub.isValidSignature(sig, for: SHA512.hash(data: input), padding: padding)
                default: return false
                }
            case "ES":
                guard key.string("kty") == "EC", let x = key.string("x").flatMap(Base64URL.decode),
                      let y = key.string("y").flatMap(Base64URL.decode) else { return false }
                if alg == "ES256", key.string("crv") == "P-256" {
                    let pub = try P256.Signing.PublicKey(rawRepresentation: x + y)
                    return pub.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: jwt.signature), for: input)
                }
                if alg == "ES384", key.string("crv") == "P-384" {
                    let pub = try P384.Signing.PublicKey(rawRepresentation: x + y)
                    return pub.isValidSignature(try P384.Signing.ECDSASignature(rawRepresentation: jwt.signature), for: input)
                }
                return false
            default:
                return false
            }
        } catch {
            return false
        }
    }

    /// HS256/384/512 with a shared secret (OIDC: the client secret), compared in constant time.
    public static func verifyHMAC(_ jwt: JWT, secret: [UInt8]) -> Bool {
        let key = SymmetricKey(data: secret)
        switch jwt.algorithm {
        case "HS256": return HMAC<SHA256>.isValidAuthenticationCode(jwt.signature, authenticating: jwt.signingInput, using: key)
        case "HS384": return HMAC<SHA384>.isValidAuthenticationCode(jwt.signature, authenticating: jwt.signingInput, using: key)
        case "HS512": return HMAC<SHA512>.isValidAuthenticationCode(jwt.signature, authenticating: jwt.signingInput, using: key)
        default: return false
        }
    }
}
