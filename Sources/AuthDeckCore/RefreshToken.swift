/// A refresh token and its rotation generation.
///
/// The generation increases by one each time a rotated token replaces the previous one;
/// a refresh commits only if the token it started from (`RefreshTokenStamp`: generation and
/// id) is still the account's, so two processes never both spend one one-use token.
public struct RefreshToken: Equatable, Hashable, Sendable {
    public var id: String
    public var value: Secret
    public var generation: Int
    public var obtainedAt: Instant
    public var expiresAt: Instant?
    /// Where it was issued, and so the only place it is sent (`SecretDestination`); nil for a
    /// token stored before homes were recorded or imported from another tool's cache — it is
    /// held to the transport rule alone until a renewal records one.
    public var home: GrantHome?

    public init(id: String, value: Secret, generation: Int, obtainedAt: Instant, expiresAt: Instant? = nil, home: GrantHome? = nil) {
        self.id = id
        self.value = value
        self.generation = generation
        self.obtainedAt = obtainedAt
        self.expiresAt = expiresAt
        self.home = home
    }

    /// False only when the provider told us when it lapses and that time has passed.
    public func isUsable(at now: Instant) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt > now
    }
}
