/// Hears of a rotated refresh token the moment a provider's answer is read, before the rest of
/// the answer is checked and folded in, so the renewal can put it somewhere safe first.
///
/// Why: a strict one-use provider has spent the old refresh token once it answers. The renewal
/// writes its whole result ahead of the commit, but reading and checking the answer (an
/// id_token's signature, the merge) takes milliseconds, and a process killed in them would
/// lose the account — about half of the losses a random kill -9 causes without the hearing.
/// The renewal hands one of these to the adapter (`ProviderAdapter.renew(_:scopes:hearing:)`),
/// which hands it to the token endpoint that spends the refresh token; that endpoint tells it
/// as soon as the answer parses. Passed along the call rather than kept anywhere shared: it
/// belongs to one renewal, and a nested renewal (SharePoint's linked Azure AD account) has its own.
public final class RotationHearing: Sendable {
    private let hear: @Sendable (Secret) -> Void

    /// A hearing that calls `hear` with each rotated refresh token it is told of.
    public init(_ hear: @escaping @Sendable (Secret) -> Void) {
        self.hear = hear
    }

    /// Tells the renewal of `rotated`, the refresh token that replaces the one just spent.
    public func tell(_ rotated: Secret) {
        hear(rotated)
    }
}
