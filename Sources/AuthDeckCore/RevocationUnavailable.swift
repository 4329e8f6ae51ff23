/// What `ProviderAdapter.revoke` throws when the provider offers no way to revoke (an OIDC
/// issuer whose discovery document names no `revocation_endpoint`): the sign-out goes on
/// locally and says so, rather than claiming "revoked at the server" for a grant nobody was
/// told of.
public struct RevocationUnavailable: Error, Sendable, Equatable {
    /// Why, for the event and the person ("the issuer names no revocation endpoint").
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
