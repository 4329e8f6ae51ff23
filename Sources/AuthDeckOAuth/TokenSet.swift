import Foundation
import AuthDeckCore

/// A successful token endpoint response (RFC 6749 §5.1), validated.
///
/// Validation is strict where a wrong value would mislead later decisions: `token_type`
/// must be present, `expires_in` must be a positive number of seconds below ten years.
/// A numeric string for `expires_in` is accepted (Azure AD v1 and ADFS send one).
public struct TokenSet: Sendable {
    public var accessToken: Secret
    public var tokenType: String
    public var expiresIn: Int64?
    public var refreshToken: Secret?
    public var idToken: Secret?
    /// Scopes the server granted, when it said (RFC 6749: omitted means as requested).
    public var scope: [String]?
    /// Other fields (`client_info`, `ext_expires_in`…), for adapters: scalars as text, objects
    /// as compact JSON text.
    public var extra: [String: String]
    /// Where the grant was made (`TokenEndpoint.home`), recorded with its refresh token.
    public var home: GrantHome?

    public init(accessToken: Secret, tokenType: String, expiresIn: Int64?, refreshToken: Secret?, idToken: Secret?,
                scope: [String]?, extra: [String: String] = [:]) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
        self.extra = extra
    }

    static let maxLifetime: Int64 = 315_360_000

    /// Parses a 2xx body; throws `AuthFailure` (transient: nothing is changed) naming what is wrong.
    public static func parse(_ body: [UInt8], from host: String) throws -> TokenSet {
        func bad(_ what: String) -> AuthFailure {
            AuthFailure(.transient, code: "bad_response",
                        remedy: "\(host) answered with an invalid token response (\(what)); nothing was changed")
        }
        guard let json = JSONObject(bytes: body) else {
            let start = String(decoding: body.prefix(20), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw bad(body.isEmpty ? "an empty body" : start.hasPrefix("<") ? "an HTML page, not JSON" : "not a JSON object")
        }
        guard let access = json.string("access_token"), !access.isEmpty else {
            throw bad("\"access_token\" is \(json.typeName("access_token"))")
        }
        guard let type = json.string("token_type"), !type.isEmpty else {
            throw bad("\"token_type\" is \(json.typeName("token_type"))")
        }
        var expiresIn: Int64?
        if json.has("expires_in") {
            let value = json.integer("expires_in") ?? json.string("expires_in").flatMap { Int64($0) }
            guard let value else { throw bad("\"expires_in\" is \(json.typeName("expires_in")), not a number of seconds") }
            guard value > 0 else { throw bad("\"expires_in\" is \(value); a lifetime must be positive") }
            guard value <= maxLifetime else { throw bad("\"expires_in\" is \(value) s, more than ten years") }
            expiresIn = value
        }
        var extra: [String: String] = [:]
        for (k, v) in json.scalarStrings where !["access_token", "refresh_token", "id_token"].contains(k) { extra[k] = v }
        for (k, v) in json.objectTexts { extra[k] = v }
        return TokenSet(accessToken: Secret(access), tokenType: type, expiresIn: expiresIn,
                        refreshToken: json.string("refresh_token").flatMap { $0.isEmpty ? nil : Secret($0) },
                        idToken: json.string("id_token").flatMap { $0.isEmpty ? nil : Secret($0) },
                        scope: json.string("scope").map { $0.split(separator: " ").map(String.init) }, extra: extra)
    }

    /// The credentials this response gives, as obtained at `now`.
    ///
    /// A missing `expires_in` is taken as one hour (the common default) rather than
    /// "never": authdeck would rather renew early than hand out a dead token forever.
    public func credentials(now: Instant, requestedScopes: [String], idTokenClaims: [String: String],
                            makeID: () -> String = { UUIDString.make() }) -> Credentials {
        let expiry = now + .seconds(expiresIn ?? 3600)
        let access = AccessToken(id: makeID(), value: accessToken, scopes: scope ?? requestedScopes,
                                 tokenType: tokenType, obtainedAt: now, expiresAt: expiry)
        let refresh = refreshToken.map { RefreshToken(id: makeID(), value: $0, generation: 1, obtainedAt: now, home: home) }
        return Credentials(accessTokens: [access], refreshToken: refresh, idTokenClaims: idTokenClaims).recordingHome(home)
    }
}

/// Random identifiers for credential rows.
public enum UUIDString {
    public static func make() -> String { UUID().uuidString.lowercased() }
}
