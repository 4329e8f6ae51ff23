import AuthDeckCore

/// The one sentence for a sign-in nobody finished within `--timeout`, whether it waited for a
/// device code's approval or for the browser's redirect.
///
/// Why: the two waits end the same way for a person (nothing saved, run it again) and each
/// must name the option that sets the wait, so one type words both.
public enum SignInTimeout {
    /// The failure (exit 3) for `what` not happening within `timeout`; `ignored` counts
    /// redirects with another sign-in's state that the wait ignored.
    public static func failure(_ what: String, within timeout: TimeSpan, ignored: Int = 0) -> AuthFailure {
        let note = ignored == 0 ? ""
            : "; \(ignored) redirect\(ignored == 1 ? "" : "s") with the wrong state (not from this sign-in) \(ignored == 1 ? "was" : "were") ignored"
        return AuthFailure(.needsInteraction, code: "timeout",
                           remedy: "\(what) within \(timeout) (--timeout)\(note); nothing was saved — run it again, with a longer --timeout if needed")
    }
}
