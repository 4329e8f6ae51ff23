/// An adapter that may hold a client registration of its own at the provider (RFC 7591
/// dynamic registration): what `providers`, the deck and sign-out need of it, without knowing
/// the adapter's kind.
public protocol ClientRegistrationHolder: Sendable {
    /// "registered dynamically at ISSUER on DATE (client ID)", or nil when the provider uses a
    /// configured client or has registered none yet.
    func registrationSummary() throws -> String?

    /// Deletes the registration at the server (RFC 7592) and then from the store; returns what
    /// was deleted, nil when there was nothing to delete. A server that cannot be reached
    /// throws, and the registration is kept.
    func unregister() async throws -> String?

    /// The sign-in flows the client allows: a stored registration's grants, or for one not
    /// registered yet, the flows config would ask for; nil for a configured client. Why:
    /// `providers` must not list a flow (the password grant) the registered client lacks.
    func registeredFlows() throws -> [SignInFlow]?

    /// What the next sign-in will change in the stored registration because config asks for
    /// other grants than it was made for (nil: nothing), so `providers` can say it first.
    func pendingRegistrationChange() throws -> String?

    /// Whether the first sign-in can register a client: from the discovery document cached in
    /// the store when it is fresh, else fetched once within `timeout` seconds. Never throws: a
    /// network failure is `unchecked`, so `providers` does not fail with it.
    func registrationOutlook(timeout: Double) async -> RegistrationOutlook
}
