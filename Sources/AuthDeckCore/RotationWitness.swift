/// Hears of a rotated refresh token the moment a provider's answer is read, before the rest of
/// the answer is checked and folded in, so the renewal can put it somewhere safe first.
///
/// Why: a strict one-use provider has spent the old refresh token once it answers. The renewal
/// writes its whole result ahead of the commit, but reading and checking the answer (an
/// id_token's signature, the merge) took milliseconds, and a process killed in them lost the
/// account — about half of the losses of a random kill -9 in one trial. The token endpoint
/// tells the witness as soon as the answer parses; the renewal under way (a task-local value,
/// so concurrent renewals each hear their own) keeps the new token in its rescue file.
public enum RotationWitness {
    @TaskLocal public static var hear: (@Sendable (Secret) -> Void)?

    /// Tells the renewal under way, if any, of `refreshToken`.
    public static func tell(_ refreshToken: Secret) {
        hear?(refreshToken)
    }
}
