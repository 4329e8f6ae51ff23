/// The ways an account can be signed in; a provider's `flow` preference names one.
public enum SignInFlow: String, CaseIterable, Sendable, Codable {
    /// RFC 8628 device authorization: works over SSH with no local browser.
    case device
    /// Authorization code + PKCE with a loopback redirect and the system browser.
    case browser
    /// Resource owner password; offered only when a provider config enables it.
    case password
    /// Client credentials: the application signs in as itself.
    case client
    /// Credentials brought in from elsewhere (cookie jars, MSAL caches).
    case `import`
    /// RFC 7523 JWT bearer: a signed user assertion (from a file) is exchanged for tokens.
    case assertion
}
