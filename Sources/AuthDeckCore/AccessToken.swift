/// A bearer access token for a set of scopes.
public struct AccessToken: Equatable, Hashable, Sendable {
    /// Row identity; also bound into the sealed value so a ciphertext cannot be moved.
    public var id: String
    public var value: Secret
    /// Scopes the token was granted for, sorted and de-duplicated.
    public var scopes: [String]
    /// The scopes asked for when they were not the provider's configured ones (`--scope`, a
    /// SharePoint site's audience), sorted; empty for a token of the configured scopes — the
    /// only kind handed out when no scope is asked for, so a Graph script never gets a
    /// SharePoint-audience token.
    public var requestedScopes: [String]
    public var tokenType: String
    public var obtainedAt: Instant
    /// nil when the provider says the token does not expire (Facebook `expires_at` 0).
    public var expiresAt: Instant?

    public init(id: String, value: Secret, scopes: [String], requestedScopes: [String] = [], tokenType: String = "Bearer",
                obtainedAt: Instant, expiresAt: Instant?) {
        self.id = id
        self.value = value
        self.scopes = Array(Set(scopes)).sorted()
        self.requestedScopes = Array(Set(requestedScopes)).sorted()
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

    /// True when this token was granted or asked for every scope in `wanted`
    /// (case-insensitively, as providers compare scopes); with no scope wanted, when it is a
    /// token of the provider's configured scopes.
    public func covers(_ wanted: [String]) -> Bool {
        guard !wanted.isEmpty else { return requestedScopes.isEmpty }
        let have = Set((scopes + requestedScopes).map { $0.lowercased() })
        return wanted.allSatisfy { have.contains($0.lowercased()) }
    }
}
