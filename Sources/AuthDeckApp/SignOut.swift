import AuthDeckCore
import AuthDeckConfig

/// Signing an account out: the one place it happens, for `authdeck logout` and the deck's `d`.
///
/// The provider's server-side step comes first: a revocation that fails stops the sign-out with
/// nothing deleted, since the refresh token is needed to try again. Then what the adapter says
/// stays (OAM's remembered registration) is kept and everything else deleted, a default naming
/// the account is cleared, and — when asked, with the provider's last account — the provider's
/// dynamic client registration is deleted. Every one of these rules is here, so the deck and
/// the CLI cannot sign out differently.
public struct SignOut: Sendable {
    public struct Outcome: Equatable, Sendable {
        public var revokedAtServer: Bool
        /// Something of the account is still in the store: a remembered username and preferences.
        public var keptRegistration: Bool
        /// Why the server was not told, when the provider offers no revocation.
        public var revocationUnavailable: String?
        /// The provider keeps a registration at sign-out (OAM): what `clearRegistration` deletes.
        public var providerKeepsRegistration: Bool
        /// The account was its provider's default (`authdeck use`); the provider has none now.
        public var wasDefault: Bool
        /// What became of the provider's dynamic client registration; nil when clearing it was
        /// not asked or the provider holds none.
        public var clientRegistration: ClientUnregistration.Outcome?

        public init(revokedAtServer: Bool, keptRegistration: Bool, revocationUnavailable: String? = nil,
                    providerKeepsRegistration: Bool = false, wasDefault: Bool = false,
                    clientRegistration: ClientUnregistration.Outcome? = nil) {
            self.revokedAtServer = revokedAtServer
            self.keptRegistration = keptRegistration
            self.revocationUnavailable = revocationUnavailable
            self.providerKeepsRegistration = providerKeepsRegistration
            self.wasDefault = wasDefault
            self.clientRegistration = clientRegistration
        }
    }

    /// A sign-out that stopped. `reason` is the one wording both callers show (the deck after
    /// the account's name, the CLI after its id).
    public struct Stopped: Error, ReportedError, Equatable, CustomStringConvertible {
        public let accountId: String
        public let reason: String
        public let exitStatus: Int32

        public var sentence: String { "\(accountId): \(reason)" }
        public var description: String { sentence }

        /// The server could not be told: nothing was deleted, so the refresh token is there to
        /// try again with.
        static func notRevoked(_ accountId: String, _ failure: AuthFailure) -> Stopped {
            Stopped(accountId: accountId, reason: "could not revoke at the server: \(failure.description). Nothing was deleted; "
                        + "fix that and retry, or sign out locally only (`authdeck logout \(accountId) --local`)",
                    exitStatus: failure.errorClass.exitCode)
        }

        /// Signed out, but the issuer did not delete the client: it is kept, so nothing is lost
        /// and `providers unregister` can try again.
        static func registrationKept(_ accountId: String, provider: String, _ failure: AuthFailure) -> Stopped {
            Stopped(accountId: accountId, reason: "signed out, but its provider's client registration could not be deleted: \(failure.description); "
                        + "it is kept: `authdeck providers unregister \(provider)` tries again",
                    exitStatus: failure.errorClass.exitCode)
        }
    }

    let store: any AccountStore
    let clock: any WallClock

    public init(store: any AccountStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// Signs `stored` out with its provider's adapter from `config` (`wiring` builds it).
    ///
    /// A provider gone from the config (or a config that does not load: nil) still lets the
    /// local credentials be deleted; a configured one whose adapter cannot be built (its secret
    /// unreadable) cannot revoke, so nothing is deleted unless `local` says so.
    public func run(_ stored: StoredAccount, wiring: ProviderWiring, config: DeckConfig?, local: Bool = false,
                    clearRegistration: Bool = false) async throws -> Outcome {
        let adapter: (any ProviderAdapter)?
        do {
            adapter = try wiring.signOutAdapter(forProvider: stored.account.providerId, config: config)
        } catch let failure as AuthFailure where !local {
            throw Stopped.notRevoked(stored.account.id, failure)
        } catch {
            adapter = nil
        }
        return try await run(stored, adapter: adapter, local: local, clearRegistration: clearRegistration)
    }

    /// - Parameters:
    ///   - adapter: nil when the provider is no longer configured: only the local credentials go.
    ///   - local: skip the server step.
    ///   - clearRegistration: delete a remembered registration too (see `keepsRegistration`), or
    ///     with the provider's last account its dynamic client registration.
    public func run(_ stored: StoredAccount, adapter: (any ProviderAdapter)?, local: Bool = false,
                    clearRegistration: Bool = false) async throws -> Outcome {
        let account = stored.account
        let holder = adapter as? ClientRegistrationHolder
        let registered = clearRegistration && (try? holder?.registrationSummary()) != nil
        if clearRegistration && adapter?.keepsRegistration != true && !registered {
            throw Refusal.usage("\(account.id): there is no registration to clear: that is for OAM accounts and OIDC providers "
                                + "registered dynamically (\(account.providerId) is neither)")
        }
        var revoked = false, unavailable: String?
        if !local, let adapter, adapter.capabilities.serverRevocation {
            do {
                try await adapter.revoke(stored, clearingRegistration: clearRegistration)
                revoked = true
            } catch let none as RevocationUnavailable {
                // Nothing to tell the server: signed out here only, and said so.
                unavailable = none.reason
            } catch let failure as AuthFailure {
                throw Stopped.notRevoked(account.id, failure)
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
        var outcome = Outcome(revokedAtServer: revoked, keptRegistration: kept != nil, revocationUnavailable: unavailable,
                              providerKeepsRegistration: adapter?.keepsRegistration == true)
        // A signed-out default no longer stands for its provider: left set, the provider id
        // would name an account with nothing to serve. Cleared before the issuer is asked
        // anything, so an unreachable issuer cannot leave it behind.
        outcome.wasDefault = try !DefaultChoice(store: store).clear(naming: [account]).isEmpty
        if registered, let holder {
            do {
                outcome.clientRegistration = try await ClientUnregistration(store: store).run(holder, provider: account.providerId)
            } catch let failure as AuthFailure {
                throw Stopped.registrationKept(account.id, provider: account.providerId, failure)
            }
        }
        return outcome
    }

    /// Deletes an account whose record was edited without the key, unopened: nothing of it
    /// can be trusted, so nothing is sent anywhere (`authdeck logout --local`).
    public func deleteUnopened(accountId: String) throws {
        try store.delete(accountId: accountId)
        try store.append(DeckEvent(at: clock.now(), kind: .tampered, accountId: accountId,
                                   detail: "signed out locally: its record had been edited without the key"))
    }
}
