/// A WebGate that challenged for an `OAM-Auth` access token: its realm at one origin — the key
/// an account keeps that WebGate's access token under, and the only place the token is sent.
///
/// The token is an `AccessToken` of type `OAM-Auth` whose one requested scope is `scope`
/// (`oam-webgate:<realm, percent-encoded>@<origin>`). Why a requested scope: the store seals
/// requested scopes with the token's value, so a row edited without the key cannot move a
/// token to another realm or origin; and a token with a requested scope is never what
/// `authdeck token` hands out when no scope is asked for (that stays the user token).
public struct WebGateRealm: Hashable, Sendable {
    /// The token type (and `Authorization` scheme) of a WebGate access token.
    public static let tokenType = "OAM-Auth"
    static let scopePrefix = "oam-webgate:"

    /// The challenge's realm (`<WebGateName>:<AuthenticationLevel> <RelativeRESTURL>`), as sent.
    public let realm: String
    /// `scheme://host[:port]` of the resource that challenged (`GrantHome.origin(of:)`).
    public let origin: String

    public init(realm: String, origin: String) {
        self.realm = realm
        self.origin = origin
    }

    /// The requested scope the token is kept under. Percent-encoded so it holds no space: the
    /// store keeps requested scopes space-separated.
    public var scope: String {
        var encoded = ""
        for byte in realm.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || "-._~:/".contains(c) {
                encoded.append(c)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return Self.scopePrefix + encoded + "@" + origin
    }

    /// The realm a `scope` names; nil for any other scope.
    public init?(scope: String) {
        guard scope.hasPrefix(Self.scopePrefix), let at = scope.lastIndex(of: "@") else { return nil }
        let encoded = scope[scope.index(scope.startIndex, offsetBy: Self.scopePrefix.count)..<at]
        let origin = String(scope[scope.index(after: at)...])
        guard !encoded.isEmpty, origin.contains("://") else { return nil }
        self.init(realm: PercentEncoding.decoded(encoded), origin: origin)
    }

    /// The WebGate `token` is for, when it is a WebGate access token.
    public init?(token: AccessToken) {
        guard token.tokenType == Self.tokenType, token.requestedScopes.count == 1 else { return nil }
        self.init(scope: token.requestedScopes[0])
    }

    /// The access token `credentials` hold for this WebGate, if any.
    public func token(in credentials: Credentials) -> AccessToken? {
        credentials.accessTokens.first { WebGateRealm(token: $0) == self }
    }

    /// Every WebGate access token `credentials` hold, with its WebGate, oldest first.
    public static func held(in credentials: Credentials) -> [(gate: WebGateRealm, token: AccessToken)] {
        credentials.accessTokens.compactMap { t in WebGateRealm(token: t).map { ($0, t) } }
    }
}
