import AuthDeckCore

/// A sign-in the agent asks of the person where they are, when a host's request needs one: a
/// port, because `authdeck agent` shows the device code or opens the browser on its own
/// terminal (`CommandLineSignIn`) and the open deck uses its own sign-in window.
///
/// Why the agent's side and never the remote's: the refresh token a sign-in gives must stay on
/// the person's machine; the remote only ever gets the access token after it.
public protocol AgentSigningIn: Sendable {
    /// Signs `stored`'s account in again; true when it finished within `timeout` seconds (the
    /// remote's own wait), false when it failed, was declined or ran out of time.
    func signIn(_ stored: StoredAccount, timeout: Double) async -> Bool
}
