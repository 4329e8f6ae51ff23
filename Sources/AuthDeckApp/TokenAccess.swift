import AuthDeckCore
import AuthDeckConfig
import AuthDeckVault

/// A usable access token for a script (`authdeck token`): the cached one when it outlives the
/// clock-skew margin, else one renewed silently and committed before it is handed out.
///
/// A grant the provider already refused is not retried behind a script's back: it would fail
/// the same way every time; `authdeck refresh` retries on request.
public struct TokenAccess: Sendable {
    /// Why no token can be had without a person; `remedy` says what to do (exit 3).
    public struct NeedsSignIn: ReportedError, Sendable {
        public let remedy: String
        public var sentence: String { remedy }
        public var exitStatus: Int32 { ExitStatus.needsSignIn }
    }

    let wiring: ProviderWiring
    let config: DeckConfig
    /// The config file's identity taken before `config` was read (`ConfigFileIdentity`):
    /// given, what of the config decides the front's answers is recorded for it (`FrontRecord`).
    let configIdentity: String?

    /// Refuses an account signed in to another tenant than its provider pins (`TenantPin`): a
    /// script asking for this provider's credential must not get the other tenant's (dev for
    /// prod), cached or renewed — `token`, `exec`, `request` and the helpers alike.
    public static func refuseOtherTenant(_ stored: StoredAccount, config: DeckConfig) throws {
        guard let pinned = otherTenantPin(stored.account, config: config) else { return }
        let id = stored.account.id, provider = stored.account.providerId
        throw NeedsSignIn(remedy: "\(id) is signed in to tenant \(TerminalText.inert(stored.account.realm ?? "")), not \(pinned), which provider "
                          + "\(provider) pins; no token is given for it — sign in with an account of \(pinned) (`authdeck login \(provider)`), "
                          + "or prune this one (`authdeck prune`)")
    }

    /// The tenant `account`'s provider pins when the account is signed in to another (nil:
    /// none pinned, or the same one).
    public static func otherTenantPin(_ account: Account, config: DeckConfig) -> String? {
        let pinned = config.provider(account.providerId)?.expectedRealm
        guard TenantPin.differs(expected: pinned, actual: account.realm) else { return nil }
        return pinned
    }

    /// Why renewing an account signed in to another tenant than its provider pins is refused:
    /// a renewal only extends the wrong tenant's grant (it stayed stale while "renewed" was
    /// said), and spends a refresh token for nothing.
    public static func renewalCannotMendTenant(_ account: Account, config: DeckConfig) -> NeedsSignIn? {
        guard let pinned = otherTenantPin(account, config: config) else { return nil }
        let provider = account.providerId
        return NeedsSignIn(remedy: "\(account.id) is signed in to tenant \(TerminalText.inert(account.realm ?? "")), not \(pinned), which provider "
                           + "\(provider) pins; renewing cannot mend that, so it was not renewed (its refresh token is unspent) — sign in "
                           + "with an account of \(pinned) (`authdeck login \(provider)`), or prune this one (`authdeck prune`)")
    }

    /// What a sign-in that landed in another tenant than its provider pins says: which tenant
    /// it got, which one is pinned, and what to do. Nil when the tenant is right.
    ///
    /// Why: the same user approving again lands in the same wrong tenant, and "Signed in
    /// prod/dev@fabrikam.com." beside a row still stale gives no hint why.
    public static func signedInToOtherTenant(_ account: Account, config: DeckConfig) -> String? {
        guard let pinned = otherTenantPin(account, config: config) else { return nil }
        let provider = account.providerId
        return "signed in, but to tenant \(TerminalText.inert(account.realm ?? "")), not \(pinned), which provider \(provider) pins: "
            + "it stays stale and gives no token — sign in with an account of \(pinned) (`authdeck login \(provider)`), "
            + "or prune this one (`authdeck prune`)"
    }

    /// Throws `signedInToOtherTenant`'s sentence, naming the account, as a needs-sign-in (exit
    /// 3): `login` saved it, yet no token will be given for it.
    public static func refuseSignedInToOtherTenant(_ account: Account, config: DeckConfig) throws {
        guard let wrong = signedInToOtherTenant(account, config: config) else { return }
        throw NeedsSignIn(remedy: "\(account.id) (\(TerminalText.inert(account.username))): \(wrong)")
    }

    public init(wiring: ProviderWiring, config: DeckConfig, configIdentity: String? = nil) {
        self.wiring = wiring
        self.config = config
        self.configIdentity = configIdentity
    }

    /// Saves the front's record of this config (a write only when it changed), so the front
    /// answers the next calls for it alone — the one writer of `FrontRecord`, whichever command
    /// (`token`, the helpers) asked. A failure costs the next call the full binary, no answer.
    func recordForFront() {
        guard let configIdentity else { return }
        try? wiring.store.saveSealedRecord(FrontRecord(configIdentity: configIdentity, clockSkewSeconds: config.statePolicy.clockSkew.seconds,
                                                       routes: config.credentials.filter { !$0.isDockers }, providers: config.providers))
    }

    /// The token for `scopes` (empty: the provider's). Throws `NeedsSignIn`, or the provider's
    /// `AuthFailure` when a renewal failed. "Last used" is recorded (at most once a minute).
    public func token(_ stored: StoredAccount, scopes: [String]) async throws -> AccessToken {
        let now = wiring.clock.now()
        let skew = config.statePolicy.clockSkew
        recordForFront()
        try Self.refuseOtherTenant(stored, config: config)
        if let token = stored.credentials.usableAccessToken(for: scopes, at: now, skew: skew) {
            wiring.store.touchIfDue(stored.account, at: now)
            return token
        }
        if stored.account.lastError?.errorClass == .needsInteraction {
            throw NeedsSignIn(remedy: Remedy.forMissingToken(stored, scopes: scopes, now: now, skew: skew))
        }
        guard let adapter = try? wiring.adapter(forProvider: stored.account.providerId, config: config) else {
            throw NeedsSignIn(remedy: Remedy.forMissingToken(stored, scopes: scopes, now: now, skew: skew))
        }
        let renewed: StoredAccount
        do {
            renewed = try await Renewal(wiring: wiring, config: config).renew(stored.account, need: .usableNow(scopes: scopes), adapter: adapter)
        } catch let failure as AuthFailure {
            throw failure.naming(stored.account.id)
        }
        // A token the server has just issued is handed out even when it lives shorter than the
        // clock-skew margin, which exists for cached tokens.
        guard let token = renewed.credentials.usableAccessToken(for: scopes, at: wiring.clock.now(), skew: .seconds(0)) else {
            let asked = scopes.isEmpty ? "its configured scopes" : "scope \(scopes.joined(separator: " "))"
            throw NeedsSignIn(remedy: "\(stored.account.id): the provider renewed the account but granted no token for \(asked); sign in with it: `authdeck login \(stored.account.providerId)`")
        }
        try? wiring.store.touch(accountId: stored.account.id, at: wiring.clock.now())
        return token
    }
}
