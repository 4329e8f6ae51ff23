import Synchronization
import AuthDeckCore

/// An adapter of a provider that registered its client at the issuer (an `oidc` provider with
/// no `client_id`): revocation and the deletion of the registration answer as a test says and
/// are counted, so sign-out can be driven below the binary — by the deck's work and by the
/// use case the CLI calls — and what reached the "issuer" checked.
public final class RegisteredClientAdapter: ProviderAdapter, ClientRegistrationHolder {
    public let profile: ProviderProfile
    public var capabilities: ProviderCapabilities { .of(profile) }
    let revocationFails: Bool
    let unregistrationFails: Bool
    private let counts = Mutex((revoked: 0, unregistered: 0, held: true))

    /// What `registrationSummary` says while the registration is held.
    public static let summary = "registered dynamically at https://issuer.example on 2026-11-27 (client dyn-1)"

    public init(_ profile: ProviderProfile, revocationFails: Bool = false, unregistrationFails: Bool = false) {
        self.profile = profile
        self.revocationFails = revocationFails
        self.unregistrationFails = unregistrationFails
    }

    /// Revocations that succeeded.
    public var revoked: Int { counts.withLock { $0.revoked } }
    /// Registrations deleted at the "issuer".
    public var unregistered: Int { counts.withLock { $0.unregistered } }

    public func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
        throw AuthFailure(.misconfigured, code: "unused", remedy: "not part of the test")
    }

    public func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials {
        throw AuthFailure(.misconfigured, code: "unused", remedy: "not part of the test")
    }

    public func revoke(_ stored: StoredAccount) async throws {
        if revocationFails { throw AuthFailure(.transient, code: "http 503", remedy: "the issuer is unavailable; try again later") }
        counts.withLock { $0.revoked += 1 }
    }

    public func registrationSummary() throws -> String? {
        counts.withLock { $0.held } ? Self.summary : nil
    }

    public func unregister() async throws -> String? {
        if unregistrationFails { throw AuthFailure(.transient, code: "http 503", remedy: "the issuer is unavailable; try again later") }
        return counts.withLock { c -> String? in
            guard c.held else { return nil }
            c.held = false
            c.unregistered += 1
            return Self.summary
        }
    }

    public func registeredFlows() throws -> [SignInFlow]? { [.device] }
    public func pendingRegistrationChange() throws -> String? { nil }
    public func registrationOutlook(timeout: Double) async -> RegistrationOutlook { counts.withLock { $0.held } ? .held : .registers }
}
