import Foundation
import Crypto
import CryptoExtras
import AuthDeckCore

/// Signs RFC 7523 client assertions (`private_key_jwt`) with an RSA key: PS256 by default
/// (what Azure AD asks for), RS256 on request, with `x5t#S256` when a certificate is given.
public struct ClientAssertionSigner: Sendable {
    public enum Algorithm: String, Sendable { case ps256 = "PS256", rs256 = "RS256" }

    let key: _RSA.Signing.PrivateKey
    let certificateDER: [UInt8]?
    public let algorithm: Algorithm

    /// - Parameters:
    ///   - privateKeyPEM: a PKCS#1 or PKCS#8 RSA key in PEM.
    ///   - certificatePEM: the matching certificate, whose SHA-256 thumbprint goes in the header.
    public init(privateKeyPEM: String, certificatePEM: String?, algorithm: Algorithm = .ps256) throws {
        do {
            key = try _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw AuthFailure(.misconfigured, code: "bad_key", remedy: "the client key is not an RSA private key in PEM form")
        }
        if let certificatePEM {
            guard let der = Self.der(fromPEM: certificatePEM, label: "CERTIFICATE") else {
                throw AuthFailure(.misconfigured, code: "bad_certificate", remedy: "the client certificate is not a PEM certificate")
            }
            certificateDER = der
        } else {
            certificateDER = nil
        }
        self.algorithm = algorithm
    }

    /// An assertion for `audience` (the token endpoint), valid for five minutes.
    public func assertion(clientId: String, audience: String, now: Instant) throws -> String {
        var header: [String: Any] = ["alg": algorithm.rawValue, "typ": "JWT"]
        if let der = certificateDER { header["x5t#S256"] = Base64URL.encode(Array(SHA256.hash(data: der))) }
        let claims: [String: Any] = [
            "aud": audience, "iss": clientId, "sub": clientId, "jti": UUIDString.make(),
            "nbf": now.secondsSinceEpoch, "iat": now.secondsSinceEpoch, "exp": (now + .minutes(5)).secondsSinceEpoch,
        ]
        return try JWT.compact(header: header, claims: claims) { input in
            let padding: _RSA.Signing.Padding = algorithm == .ps256 ? .PSS : .insecurePKCS1v1_5
            return Array(try key.signature(for: SHA256.hash(data: input), padding: padding).rawRepresentation)
        }
    }

    static func der(fromPEM pem: String, label: String) -> [UInt8]? {
        let begin = "-----BEGIN \(label)-----", end = "-----END \(label)-----"
        guard let b = pem.range(of: begin), let e = pem.range(of: end, range: b.upperBound..<pem.endIndex) else { return nil }
        let body = pem[b.upperBound..<e.lowerBound].filter { !$0.isWhitespace }
        return Data(base64Encoded: String(body)).map(Array.init)
    }
}
