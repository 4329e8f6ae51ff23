/// A bearer access token for a set of scopes.
public struct AccessToken: Equatable, Hashable, Sendable {
    /// Row identity; also bound into the sealed value so a ciphertext cannot be moved.
    public var id: String
    public var value: Secret
    /// Scopes the token was granted for, sorted and de-duplicated.
    public var scopes: [String]
    public var tokenType: String
    public var obtainedAt: Instant
    /// nil when the provider says the token does not expire (Facebook `expires_at` 0).
    public var expiresAt: Instant?

    public init(id: String, value: Secret, scopes: [String], tokenType: String = "Bearer",
                obtainedAt: Instant, expiresAt: Instant?) {
        self.id = id
        self.value = value
        self.scopes = Array(Set(scopes)).sorted()
        self.tokenType = tokenType
        self.obtainedAt = obtainedAt
        self.expiresAt = expiresAt
    }

    /// True when the token can still be presented at `now`, keeping `skew` in reserve for
    /// clock drift between this machine and the resource server.
    public func isValid(at now: Instant, skew: TimeSpan) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt - skew > now
    }

    /// True when this token was granted every scope in `wanted` (case-insensitively, as
    /// providers compare scopes).
    public func covers(_ wanted: [String]) -> Bool {
        guard !wanted.isEmpty else { return true }  // (no set of lowercased scopes built for nothing)
        let have = Set(scopes.map { $0.lowercased() })
        return wanted.allSatisfy { have.contains($0.lowercased()) }
    }
}
