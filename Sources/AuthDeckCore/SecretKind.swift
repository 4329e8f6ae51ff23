/// What kind of secret a request carries, so a refusal can name it and the one decision
/// (`SecretDestination`) knows which ones are bound to a grant's home. Ordered by what a
/// refusal names first: the person's own secrets before the client's.
public enum SecretKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case refreshToken = "refresh token"
    case password = "password"
    case registrationAccessToken = "registration access token"
    case clientSecret = "client secret"
    case clientAssertion = "client assertion"
    case accessToken = "access token"
    case cookie = "cookie"
    /// A one-time grant value: an authorization code, a device code, a PKCE verifier, an
    /// OAM pre-authorization code or assertion.
    case grantCode = "grant"

    public static func < (a: SecretKind, b: SecretKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
