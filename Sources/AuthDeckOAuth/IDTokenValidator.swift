import Foundation
import AuthDeckCore

/// Validates an id_token (OIDC Core §3.1.3.7) before anything it says is believed.
///
/// Checks: a known algorithm (`none` is refused), the signature (JWKS for asymmetric
/// algorithms, the client secret for HS*), `iss` equal to the issuer, `aud` containing the
/// client id (and `azp` equal to it when there are several audiences), `exp` in the future
/// and `iat` not in the future (both with skew), and `nonce` when one was sent.
public struct IDTokenValidator: Sendable {
    public let issuer: String
    public let clientId: String
    public let clientSecret: Secret?
    public let keys: JWKSet?
    public let skew: TimeSpan

    public init(issuer: String, clientId: String, clientSecret: Secret?, keys: JWKSet?, skew: TimeSpan = .seconds(120)) {
        self.issuer = issuer
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.keys = keys
        self.skew = skew
    }

    /// The claims of a valid token, as strings; throws `AuthFailure` (nothing is saved).
    public func validate(_ raw: Secret, now: Instant, nonce: String?) throws -> [String: String] {
        func reject(_ why: String) -> AuthFailure {
            AuthFailure(.misconfigured, code: "invalid_id_token", remedy: "the id_token was rejected: \(why); nothing was saved")
        }
        let jwt: JWT
        do { jwt = try JWT(compact: raw.exposedValue) } catch { throw reject("\(error)") }
        let alg = jwt.algorithm
        if alg.lowercased() == "none" || alg.isEmpty { throw reject("it is unsigned (alg \"\(alg)\")") }
        if JWKSet.symmetric.contains(alg) {
            guard let secret = clientSecret else { throw reject("it is signed with \(alg) but this client has no secret") }
            guard JWKSet.verifyHMAC(jwt, secret: Array(secret.exposedValue.utf8)) else {
                throw reject("the \(alg) signature does not match this client's secret, the key OpenID Connect signs \(alg) id_tokens with; "
                             + "an issuer signing with a key of its own cannot be checked: have it sign with RS256 or ES256")
            }
        } else if JWKSet.asymmetric.contains(alg) {
            guard let keys else { throw reject("no signing keys (jwks_uri) are known for \(issuer)") }
            guard keys.verify(jwt) else { throw reject("the \(alg) signature does not verify with the issuer's keys") }
        } else {
            throw reject("algorithm \"\(TerminalText.inert(String(alg.prefix(20))))\" is not accepted")
        }
        let c = jwt.claims
        guard c.string("iss") == issuer else { throw reject("issuer \"\(TerminalText.inert(c.string("iss") ?? "none"))\" is not \"\(issuer)\"") }
        let audiences = c.string("aud").map { [$0] } ?? c.strings("aud") ?? []
        guard audiences.contains(clientId) else { throw reject("it was issued for another client (aud)") }
        if audiences.count > 1, let azp = c.string("azp"), azp != clientId { throw reject("azp is not this client") }
        guard let exp = c.integer("exp") else { throw reject("it has no exp") }
        guard Instant(secondsSinceEpoch: exp) + skew > now else { throw reject("it expired at \(Instant(secondsSinceEpoch: exp).iso8601)") }
        if let iat = c.integer("iat"), Instant(secondsSinceEpoch: iat) - skew > now { throw reject("it was issued in the future (iat)") }
        if let nonce, c.string("nonce") != nonce { throw reject("the nonce does not match this sign-in") }
        guard let sub = c.string("sub"), !sub.isEmpty else { throw reject("it has no sub") }
        return c.scalarStrings
    }
}
