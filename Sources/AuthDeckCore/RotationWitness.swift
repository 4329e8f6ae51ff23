import Synchronization

/// Hears of a rotated refresh token the moment a provider's answer is read, before the rest of
/// the answer is checked and folded in, so the renewal can put it somewhere safe first.
///
/// Why: a strict one-use provider has spent the old refresh token once it answers. The renewal
/// writes its whole result ahead of the commit, but reading and checking the answer (an
/// id_token's signature, the merge) takes milliseconds, and a process killed in them would lose
/// the account — about half of the losses of a random kill -9 in one trial without the witness. The token endpoint
/// tells the witness as soon as the answer parses, naming the refresh token it spent; the
/// renewal that listens for that token (concurrent renewals each for their own) keeps the new
/// one in its rescue file. (Keyed by the spent token rather than a task-local value: a
/// task-local pushed inside the renewal crashed the static release build in
/// `swift_task_localValuePush`, Swift 6.3.1.)
public enum RotationWitness {
    private static let listeners = Mutex<[String: @Sendable (Secret) -> Void]>([:])

    /// Runs `body` with `hear` told of the token that replaces `spent`, if one is read meanwhile.
    public static func listening<T>(for spent: Secret, _ hear: @escaping @Sendable (Secret) -> Void,
                                    _ body: () async throws -> T) async rethrows -> T {
        listeners.withLock { $0[spent.exposedValue] = hear }
        defer { _ = listeners.withLock { $0.removeValue(forKey: spent.exposedValue) } }
        return try await body()
    }

    /// Tells whoever listens for `spent` of `rotated`, its successor.
    public static func tell(spent: String, rotated: Secret) {
        listeners.withLock { $0[spent] }?(rotated)
    }
}
