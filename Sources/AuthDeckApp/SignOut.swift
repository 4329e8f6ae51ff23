import AuthDeckCore

/// Signing an account out: the one place it happens, for `authdeck logout` and the deck.
///
/// The provider's server-side step comes first: a revocation that fails stops the sign-out with
/// nothing deleted, since the refresh token is needed to try again. Then what the adapter says
/// stays (OAM's remembered registration) is kept and everything else deleted.
public struct SignOut: Sendable {
    public struct Outcome: Equatable, Sendable {
        public var revokedAtServer: Bool
        /// Something of the account is still in the store: a remembered username and preferences.
        public var keptRegistration: Bool
        /// Why the server was not told, when the provider offers no revocation.
        public var revocationUnavailable: String?

        public init(revokedAtServer: Bool, keptRegistration: Bool, revocationUnavailable: String? = nil) {
            self.revokedAtServer = revokedAtServer
            self.keptRegistration = keptRegistration
            self.revocationUnavailable = revocationUnavailable
        }
    }

    let store: any AccountStore
    let clock: any WallClock

    public init(store: any AccountStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// - Parameters:
    ///   - adapter: nil when the provider is no longer configured: only the local credentials go.
    ///   - local: skip the server step.
    ///   - clearRegistration: delete a remembered registration too (see `keepsRegistration`).
    public func run(_ stored: StoredAccount, adapter: (any ProviderAdapter)?, local: Bool = false,
                    clearRegistration: Bool = false) async throws -> Outcome {
        let account = stored.account
        var revoked = false, unavailable: String?
        if !local, let adapter, adapter.capabilities.serverRevocation {
            do {
                try await adapter.revoke(stored, clearingRegistration: clearRegistration)
                revoked = true
            } catch let none as RevocationUnavailable {
                // Nothing to tell the server: signed out here only, and said so.
                unavailable = none.reason
            }
        }
        let detail: String
        let kept = adapter?.keptAfterSignOut(stored, clearRegistration: clearRegistration)
        if let kept {
            try store.replaceCredentials(kept, accountId: account.id)
            detail = "tokens and stored password deleted, username and preferences kept"
        } else {
            try store.delete(accountId: account.id)
            detail = adapter?.keepsRegistration == true ? "registration cleared (username and preferences deleted)"
                                                         : "credentials deleted" + (revoked ? "" : " locally")
                                                             + (unavailable.map { " (\($0))" } ?? "")
        }
        try store.append(DeckEvent(at: clock.now(), kind: .logout, accountId: account.id, providerId: account.providerId,
                                   detail: (revoked ? "revoked at the server; " : "") + detail))
        return Outcome(revokedAtServer: revoked, keptRegistration: kept != nil, revocationUnavailable: unavailable)
    }
}
