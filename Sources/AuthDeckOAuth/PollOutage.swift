import AuthDeckCore

/// Tells the person waiting on a device code, once, that the provider stopped answering the
/// polls, and once that it answers again.
///
/// Why: a poll that cannot reach the provider keeps the wait going (a blip must not end a
/// 15-minute sign-in); in silence, with the provider down, "Waiting…" would stay on screen
/// until the code expired, and nobody could tell an outage from a slow approver.
public struct PollOutage: Sendable {
    /// The failure of the last poll while the provider does not answer; nil while it does.
    private var last: AuthFailure?

    public init() {}

    /// The notice for a poll that failed with `failure` (a transient one); nil if already said.
    public mutating func failed(_ failure: AuthFailure) -> SignInPrompt? {
        defer { last = failure }
        guard last == nil else { return nil }
        return .notice("The provider did not answer the last poll (\(failure.remedy)); still waiting, and polling more slowly.")
    }

    /// The notice for a poll the provider answered (still pending); nil unless it was down.
    public mutating func answered() -> SignInPrompt? {
        guard last != nil else { return nil }
        last = nil
        return .notice("The provider answers again; waiting for the approval.")
    }

    /// What ends the wait when `--timeout` or the code's life runs out (`ending`): while the
    /// provider is not answering, that it did not answer — a transient failure (exit 4), not
    /// "nobody approved" (exit 3), which would send the person to approve faster.
    public func ending(_ ending: any Error) -> any Error {
        guard let last else { return ending }
        return AuthFailure(.transient, code: last.code,
                           remedy: "the provider stopped answering while the sign-in waited (\(last.remedy)); nothing was saved — run it again once it answers")
    }
}
