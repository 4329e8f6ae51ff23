import AuthDeckCore
import AuthDeckOAuth

/// The header and claims of a JWT access token, for a person to read (`token --decode`).
///
/// The signature is NOT verified: an access token is meant for its resource server, and the
/// client holds no key to check it with. So this is a look, never a decision: nothing in
/// authdeck acts on what it shows.
public struct AccessTokenPeek: Sendable {
    public let header: InertJSON
    public let claims: InertJSON

    /// Why a token cannot be shown: it is opaque (not a JWT), or a malformed one.
    public struct NotAJWT: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Parses `token` with the sign-in's own JWT parser; the token itself never enters the error.
    public init(token: String) throws(NotAJWT) {
        let jwt: JWT
        do { jwt = try JWT(compact: token) } catch let error {
            throw NotAJWT(description: "the access token is not a JWT (\(error)): this provider issues opaque tokens, "
                          + "which only the server that issued them can read; there is nothing to decode")
        }
        header = InertJSON(.object(jwt.header.fields))
        claims = InertJSON(.object(jwt.claims.fields))
    }
}
