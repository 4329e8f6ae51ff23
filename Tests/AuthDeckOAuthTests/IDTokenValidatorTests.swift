import Testing
import Foundation
import Crypto
import CryptoExtras
import AuthDeckCore
import AuthDeckOAuth

/// id_token validation: every algorithm authdeck accepts verifies, and every way a token can
/// be wrong is refused with a reason.
@Suite struct IDTokenValidatorTests {
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    let issuer = "https://idp.test"

    func claims(_ overrides: [String: Any] = [:]) -> [String: Any] {
        var c: [String: Any] = ["iss": issuer, "aud": "client-1", "sub": "user-1", "exp": now.secondsSinceEpoch + 600,
                                "iat": now.secondsSinceEpoch, "nonce": "n-1", "preferred_username": "taro"]
        for (k, v) in overrides { c[k] = v }
        return c
    }

    static let rsa = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let ec = P256.Signing.PrivateKey()

    var jwks: JWKSet {
        let p = try! Self.rsa.publicKey.getKeyPrimitives()
        let ecRaw = Array(Self.ec.publicKey.rawRepresentation)
        return JWKSet(keys: [
            JSONObject(["kty": .string("RSA"), "kid": .string("r1"), "n": .string(Base64URL.encode(Array(p.modulus))), "e": .string(Base64URL.encode(Array(p.publicExponent)))]),
            JSONObject(["kty": .string("EC"), "kid": .string("e1"), "crv": .string("P-256"), "x": .string(Base64URL.encode(Array(ecRaw[0..<32]))), "y": .string(Base64URL.encode(Array(ecRaw[32...])))]),
        ])
    }

    func sign(_ alg: String, kid: String? = nil, _ claims: [String: Any]) throws -> Secret {
        var header: [String: Any] = ["alg": alg, "typ": "JWT"]
        if let kid { header["kid"] = kid }
        return Secret(try JWT.compact(header: header, claims: claims) { input in
            switch alg {
            case "RS256": return Array(try Self.rsa.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation)
            case "PS256": return Array(try Self.rsa.signature(for: SHA256.hash(data: input), padding: .PSS).rawRepresentation)
            case "ES256": return Array(try Self.ec.signature(for: input).rawRepresentation)
            case "HS256": return Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: Array("client-secret".utf8))))
            default: return []
            }
        })
    }

    var validator: IDTokenValidator {
        IDTokenValidator(issuer: issuer, clientId: "client-1", clientSecret: Secret("client-secret"), keys: jwks)
    }

    @Test(arguments: ["RS256", "PS256", "ES256", "HS256"])
    func everyAcceptedAlgorithmVerifies(alg: String) throws {
        let kid = alg == "ES256" ? "e1" : (alg == "HS256" ? nil : "r1")
        let got = try validator.validate(try sign(alg, kid: kid, claims()), now: now, nonce: "n-1")
        #expect(got["sub"] == "user-1" && got["preferred_username"] == "taro")
    }

    func rejection(_ token: Secret, nonce: String? = "n-1") -> String? {
        do {
            _ = try validator.validate(token, now: now, nonce: nonce)
            return nil
        } catch let f as AuthFailure {
            #expect(f.code == "invalid_id_token" && f.errorClass == .misconfigured)
            return f.remedy
        } catch {
            return "\(error)"
        }
    }

    @Test func wrongTokensAreRefusedWithTheirReason() throws {
        let unsigned = Secret(Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." +
                              Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: claims()))) + ".")
        #expect(rejection(unsigned)?.contains("it is unsigned") == true)
        #expect(rejection(try sign("RS256", kid: "r1", claims(["iss": "https://evil.test"])))?.contains("issuer") == true)
        #expect(rejection(try sign("RS256", kid: "r1", claims(["aud": "other-client"])))?.contains("another client") == true)
        #expect(rejection(try sign("RS256", kid: "r1", claims(["aud": ["client-1", "x"], "azp": "x"])))?.contains("azp") == true)
        #expect(rejection(try sign("RS256", kid: "r1", claims(["exp": now.secondsSinceEpoch - 3600])))?.contains("expired") == true)
        #expect(rejection(try sign("RS256", kid: "r1", claims(["iat": now.secondsSinceEpoch + 3600])))?.contains("future") == true)
        #expect(rejection(try sign("RS256", kid: "r1", claims(["nonce": "other"])))?.contains("nonce") == true)
        #expect(rejection(try sign("RS256", kid: "e1", claims()))?.contains("does not verify") == true, "kid of another key")
        #expect(rejection(Secret("a.b"))?.contains("3 dot-separated parts") == true)
        #expect(rejection(try sign("HS512", claims()))?.contains("HS512 signature does not match") == true)
        // A valid RS256 token whose payload names another user (still well-formed JSON).
        let good = try sign("RS256", kid: "r1", claims()).exposedValue.split(separator: ".").map(String.init)
        let payload = String(decoding: Base64URL.decode(good[1])!, as: UTF8.self).replacingOccurrences(of: "user-1", with: "user-2")
        #expect(rejection(Secret(good[0] + "." + Base64URL.encode(Array(payload.utf8)) + "." + good[2]))?.contains("does not verify") == true)
    }

    @Test func hmacTokensNeedAClientSecret() throws {
        let noSecret = IDTokenValidator(issuer: issuer, clientId: "client-1", clientSecret: nil, keys: jwks)
        #expect(throws: AuthFailure.self) { try noSecret.validate(try sign("HS256", claims()), now: now, nonce: nil) }
    }

    @Test func clientAssertionsVerifyAndCarryTheCertificateThumbprint() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("assert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = dir.appendingPathComponent("k.pem").path, cert = dir.appendingPathComponent("c.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=authdeck-test"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        let certPEM = try String(contentsOfFile: cert, encoding: .utf8)
        let signer = try ClientAssertionSigner(privateKeyPEM: try String(contentsOfFile: key, encoding: .utf8), certificatePEM: certPEM)
        let assertion = try signer.assertion(clientId: "app-1", audience: "https://idp.test/token", now: now)
        let jwt = try JWT(compact: assertion)
        #expect(jwt.algorithm == "PS256")
        #expect(jwt.claims.string("iss") == "app-1" && jwt.claims.string("sub") == "app-1" && jwt.claims.string("aud") == "https://idp.test/token")
        #expect(jwt.claims.integer("exp") == now.secondsSinceEpoch + 300)
        let der = Data(base64Encoded: certPEM.components(separatedBy: "\n").filter { !$0.hasPrefix("-----") }.joined())!
        #expect(jwt.header.string("x5t#S256") == Base64URL.encode(Array(SHA256.hash(data: der))))
        let pub = try _RSA.Signing.PrivateKey(pemRepresentation: try String(contentsOfFile: key, encoding: .utf8)).publicKey
        let p = try pub.getKeyPrimitives()
        let set = JWKSet(keys: [JSONObject(["kty": .string("RSA"), "n": .string(Base64URL.encode(Array(p.modulus))), "e": .string(Base64URL.encode(Array(p.publicExponent)))])])
        #expect(set.verify(jwt))
    }
}
