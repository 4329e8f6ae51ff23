/// How renewed credentials are folded into what an account already holds.
extension Credentials {
    /// The credentials after a renewal returned `renewed` at `now`.
    ///
    /// - Access tokens: the new ones, plus old ones for other scope sets that are still valid
    ///   (a renewal for one resource must not throw away another's token).
    /// - Refresh token: a new value replaces the old with `generation + 1`; when the server
    ///   sent none (no rotation) the old one is kept as it was.
    /// - id-token claims and cookies: replaced when the renewal brought any.
    /// - extras: merged, new values winning.
    public func merging(renewed: Credentials, now: Instant, skew: TimeSpan) -> Credentials {
        var out = self
        let newScopeSets = Set(renewed.accessTokens.map { [$0.scopes, $0.requestedScopes] })
        out.accessTokens = renewed.accessTokens + accessTokens.filter {
            !newScopeSets.contains([$0.scopes, $0.requestedScopes]) && $0.isValid(at: now, skew: skew)
        }
        if let fresh = renewed.refreshToken, fresh.value != refreshToken?.value {
            var rotated = fresh
            rotated.generation = (refreshToken?.generation ?? 0) + 1
            out.refreshToken = rotated
        }
        if !renewed.idTokenClaims.isEmpty { out.idTokenClaims = renewed.idTokenClaims }
        if !renewed.cookies.isEmpty { out.cookies = renewed.cookies }
        out.extras.merge(renewed.extras) { _, new in new }
        return out
    }
}
