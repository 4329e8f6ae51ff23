import AuthDeckCore
import AuthDeckConfig
import AuthDeckProviders

/// The one silent renewal every use case goes through: it takes an explicit `RenewalNeed`,
/// decides whether and how far ahead to renew, paces renewals nobody waits on
/// (`RenewalPacing`) and bounds how many run at once. The lease, the compare-and-swap commit
/// and the rescue file stay `RenewalCoordinator`'s: this decides, that one makes it safe.
public struct Renewal: Sendable {
    /// How one renewal went.
    public enum Attempt: Sendable {
        case renewed(StoredAccount)
        /// It failed; `retryAt`: when a renewal ahead is tried again.
        case failed(any Error, retryAt: Instant)
        /// Not tried: a renewal ahead of `until` is paced (back-off or a recent success).
        case deferred(until: Instant)
    }

    let wiring: ProviderWiring
    let config: DeckConfig
    public let pacing: RenewalPacing

    public init(wiring: ProviderWiring, config: DeckConfig, pacing: RenewalPacing = RenewalPacing()) {
        self.wiring = wiring
        self.config = config
        self.pacing = pacing
    }

    /// Renews `account` as `need` asks and returns it as stored. Throws the provider's
    /// `AuthFailure` (or a store error); a paced renewal ahead is a transient `AuthFailure`.
    public func renew(_ account: Account, need: RenewalNeed, adapter: (any ProviderAdapter)? = nil) async throws -> StoredAccount {
        switch await attempt(account, need: need, adapter: adapter) {
        case .renewed(let stored): return stored
        case .failed(let error, _): throw error
        case .deferred(let until):
            throw AuthFailure(.transient, code: "paced", remedy: "\(account.id) is not renewed again before \(until.iso8601)")
        }
    }

    /// Renews `account` as `need` asks, once a place is free; never throws. `adapter`: the
    /// provider's, when the caller has built it already (else built here).
    ///
    /// An account signed in to another tenant than its provider pins is never renewed, by any
    /// need: renewing cannot mend the tenant and would spend its refresh token (`watch` and the
    /// deck's renewal ahead did, while `refresh` and Enter already refused).
    public func attempt(_ account: Account, need: RenewalNeed, adapter: (any ProviderAdapter)? = nil) async -> Attempt {
        if let refusal = TokenAccess.renewalCannotMendTenant(account, config: config) {
            return .failed(refusal, retryAt: pacing.record(account.id, succeeded: false, at: wiring.clock.now()))
        }
        if case .ahead = need, let until = pacing.notBefore(account.id), until > wiring.clock.now() {
            return .deferred(until: until)
        }
        return await pacing.gate.run {
            do {
                let adapter = try adapter ?? wiring.adapter(forProvider: account.providerId, config: config)
                let (scopes, force, window) = terms(need, providerId: account.providerId)
                let (renewed, asked) = try await wiring.renewer(config)
                    .renewIfNeeded(account.id, with: adapter, scopes: scopes, force: force, window: window)
                // Fresh enough already: nothing happened, so nothing to pace.
                if asked {
                    let now = wiring.clock.now()
                    pacing.record(account.id, succeeded: true, at: now,
                                  usableUntil: renewed.credentials.usableUntil(at: now, skew: config.statePolicy.clockSkew))
                }
                return .renewed(renewed)
            } catch {
                return .failed(error, retryAt: pacing.record(account.id, succeeded: false, at: wiring.clock.now()))
            }
        }
    }

    /// Renews each account as its need asks, at most the pacing's limit at once; the attempts
    /// sorted by account id.
    public func attemptAll(_ wanted: [(account: Account, need: RenewalNeed)]) async -> [(account: Account, attempt: Attempt)] {
        await withTaskGroup(of: (account: Account, attempt: Attempt).self) { group in
            for (account, need) in wanted {
                group.addTask { (account, await attempt(account, need: need)) }
            }
            var out: [(account: Account, attempt: Attempt)] = []
            for await result in group { out.append(result) }
            return out.sorted { $0.account.id < $1.account.id }
        }
    }

    /// The scopes, whether to renew whatever the credential's age, and how long it must
    /// still live for no renewal to be needed.
    func terms(_ need: RenewalNeed, providerId: String) -> (scopes: [String], force: Bool, window: TimeSpan) {
        switch need {
        case .usableNow(let scopes): (scopes, false, .seconds(0))
        case .ahead(let scopes): (scopes, false, config.provider(providerId)?.renewBefore ?? ProviderProfile.defaultRenewBefore)
        case .expiringSoon: ([], false, config.statePolicy.expiringSoonWindow)
        case .force: ([], true, .seconds(0))
        }
    }
}
