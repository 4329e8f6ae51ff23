/// What a request declares about the secrets it carries: which kinds, the home they are
/// bound to (nil: no grant binds them, only the transport rule applies), and the issuer the
/// sender believes it is speaking to.
///
/// Senders that know a home declare it; the HTTP layer infers a passage without a home for a
/// request that declares none but carries a credential (`Authorization`, `Cookie`, a secret
/// form field), so no secret leaves without `SecretDestination` being asked.
public struct SecretPassage: Sendable, Hashable {
    public var kinds: Set<SecretKind>
    public var home: GrantHome?
    public var issuer: String?

    public init(_ kinds: Set<SecretKind>, home: GrantHome? = nil, issuer: String? = nil) {
        self.kinds = kinds
        self.home = home
        self.issuer = issuer
    }
}
