import AuthDeckCore
import AuthDeckConfig

/// An account's credentials made to last for a command they are handed to (`authdeck exec`):
/// renewed so they outlive the provider's `renew_before`; when renewal fails for a passing
/// reason, or the provider refused it before, a credential that still works is used as it is,
/// with a warning, so the command can still run.
public struct FreshCredentials: Sendable {
    let wiring: ProviderWiring
    let config: DeckConfig

    public init(wiring: ProviderWiring, config: DeckConfig) {
        self.wiring = wiring
        self.config = config
    }

    /// The account, renewed when due, and a warning when its current credential stands in.
    /// Throws `TokenAccess.NeedsSignIn` or the provider's `AuthFailure` when nothing usable is left.
    public func run(_ stored: StoredAccount, scopes: [String]) async throws -> (stored: StoredAccount, warning: String?) {
        try TokenAccess.refuseOtherTenant(stored, config: config)
        let now = wiring.clock.now()
        if let error = stored.account.lastError, error.errorClass == .needsInteraction {
            // The provider already refused a renewal: no second try; a credential that still
            // works is used, as `authdeck token` does.
            guard stored.credentials.hasUsableCredential(at: now, skew: .seconds(0)) else {
                throw TokenAccess.NeedsSignIn(remedy: Remedy.forMissingToken(stored, scopes: scopes, now: now, skew: config.statePolicy.clockSkew))
            }
            return (stored, "\(stored.account.id) cannot renew (\(error.remedy)); using its current credential until it expires")
        }
        do {
            return (try await Renewal(wiring: wiring, config: config).renew(stored.account, need: .ahead(scopes: scopes)), nil)
        } catch let failure as AuthFailure {
            let usable = stored.credentials.usableAccessToken(for: scopes, at: now, skew: .seconds(0)) != nil
                || stored.credentials.cookiesUsable(at: now, skew: .seconds(0))
            guard failure.errorClass == .transient, usable else { throw failure.naming(stored.account.id) }
            return (stored, "\(stored.account.id) could not be renewed (\(failure.description)); using its current credential")
        }
    }
}
