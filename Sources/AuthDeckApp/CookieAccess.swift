import AuthDeckCore
import AuthDeckConfig

/// An account's cookies for a script (`authdeck cookies`), by `TokenAccess`'s rule: the stored
/// ones while they outlive the clock-skew margin, else renewed silently and committed before
/// they are handed out.
///
/// Why: a script's cookie jar must keep working as `token` does without a separate
/// `authdeck refresh`: the README's `curl -b <(authdeck cookies sp-intranet)` runs unattended
/// for longer than a SharePoint session lasts.
public struct CookieAccess: Sendable {
    let wiring: ProviderWiring
    let config: DeckConfig

    public init(wiring: ProviderWiring, config: DeckConfig) {
        self.wiring = wiring
        self.config = config
    }

    /// The account's cookies, renewed when they no longer outlive the margin. Throws
    /// `TokenAccess.NeedsSignIn` when only a person can help, or the provider's `AuthFailure`
    /// when a renewal failed. "Last used" is recorded (at most once a minute).
    public func cookies(_ stored: StoredAccount) async throws -> [Cookie] {
        let now = wiring.clock.now()
        let skew = config.statePolicy.clockSkew
        let id = stored.account.id
        if stored.credentials.cookiesUsable(at: now, skew: skew) {
            wiring.store.touchIfDue(stored.account, at: now)
            return stored.credentials.cookies
        }
        let signIn = "sign in again: `authdeck login \(stored.account.providerId)`"
        if let error = stored.account.lastError, error.errorClass == .needsInteraction {
            throw TokenAccess.NeedsSignIn(remedy: "the cookies of \(id) have expired and the provider refused their last renewal (\(error.remedy)); \(signIn)")
        }
        guard let adapter = try? wiring.adapter(forProvider: stored.account.providerId, config: config),
              adapter.capabilities.silentRenewal else {
            throw TokenAccess.NeedsSignIn(remedy: "the cookies of \(id) have expired and cannot be renewed without a person; \(signIn)")
        }
        let renewed: StoredAccount
        do {
            renewed = try await Renewal(wiring: wiring, config: config).renew(stored.account, need: .usableNow(scopes: []), adapter: adapter)
        } catch let failure as AuthFailure {
            throw failure.naming(id)
        }
        // Cookies the server has just set are handed out even when they live shorter than the margin.
        guard renewed.credentials.cookiesUsable(at: wiring.clock.now(), skew: .seconds(0)) else {
            throw TokenAccess.NeedsSignIn(remedy: "\(id) was renewed but the provider set no usable cookies; \(signIn)")
        }
        try? wiring.store.touch(accountId: id, at: wiring.clock.now())
        return renewed.credentials.cookies
    }
}
