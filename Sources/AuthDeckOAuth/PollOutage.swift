import AuthDeckCore

/// Tells the person waiting on a device code, once, that the provider stopped answering the
/// polls, and once that it answers again.
///
/// Why: a poll that cannot reach the provider keeps the wait going (a blip must not end a
/// 15-minute sign-in), but it did so in silence — with the provider down, "Waiting…" stayed
/// on screen until the code expired, and nobody could tell an outage from a slow approver.
public struct PollOutage: Sendable {
    private var down = false

    public init() {}

    /// The notice for a poll that failed with `failure` (a transient one); nil if already said.
    public mutating func failed(_ failure: AuthFailure) -> SignInPrompt? {
        guard !down else { return nil }
        down = true
        return .notice("The provider did not answer the last poll (\(failure.remedy)); still waiting, and polling more slowly.")
    }

    /// The notice for a poll the provider answered (still pending); nil unless it was down.
    public mutating func answered() -> SignInPrompt? {
        guard down else { return nil }
        down = false
        return .notice("The provider answers again; waiting for the approval.")
    }
}
