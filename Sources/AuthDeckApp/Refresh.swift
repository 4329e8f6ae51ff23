import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckProviders

/// Renewing accounts silently on request (`authdeck refresh`): a named account now, or every
/// account expiring or expired but renewable — with `force` every signed-in one too, and
/// without it those a provider check finds dead (SharePoint cookies expired server-side) —
/// at most `parallel` at a time.
public struct Refresh: Sendable {
    /// One account's renewal: when its credential now lapses, or why it failed.
    public struct Result: Sendable {
        public var id: String
        public var expiresAt: Instant?
        public var failure: (errorClass: ErrorClass, remedy: String)?
        public var ok: Bool { failure == nil }
    }

    /// An account to renew, and whether even a fresh-looking credential is renewed.
    public typealias Target = (stored: StoredAccount, force: Bool)

    let wiring: ProviderWiring
    let config: DeckConfig

    public init(wiring: ProviderWiring, config: DeckConfig) {
        self.wiring = wiring
        self.config = config
    }

    /// The accounts `--all` renews, from summaries (a probe reads only the account it sends),
    /// and those no renewal can help — expired without a way to renew, or needing a sign-in —
    /// as failures that say so, so `--all` exits 3 as documented instead of 0 in silence.
    public func due(force: Bool) async throws -> (targets: [Target], needSignIn: [Result]) {
        let assessment = try DeckAssessment.read(wiring.store, config: config, now: wiring.clock.now())
        var targets: [Target] = []
        var needSignIn: [Result] = []
        for entry in assessment.entries {
            let account = entry.stored.account
            switch entry.state {
            case .expired(renewable: false), .needsSignIn:
                let what = entry.state == .expired(renewable: false) ? "expired and cannot renew without a person" : "needs a sign-in"
                needSignIn.append(Result(id: account.id, expiresAt: nil,
                                         failure: (.needsInteraction, "\(what): `authdeck login \(account.providerId)`")))
            case .expiringSoon, .renewDue, .expired(renewable: true):
                targets.append((entry.stored, force))
            case .signedIn:
                if force {
                    targets.append((entry.stored, true))
                } else if await probeSaysDead(entry.stored) {
                    targets.append((entry.stored, true))
                }
            default: break
            }
        }
        return (targets, needSignIn)
    }

    /// Renews `targets`, at most `parallel` at once, sorted by id. `named`: the person named the
    /// account, so it is renewed now, not only when inside the "expiring soon" window.
    public func run(_ targets: [Target], named: Bool, parallel: Int) async -> [Result] {
        let renewal = Renewal(wiring: wiring, config: config, pacing: RenewalPacing(parallel: parallel))
        var results: [Result] = []
        var wanted: [(account: Account, need: RenewalNeed)] = []
        for target in targets {
            let account = target.stored.account
            // A provider gone from the config: its sentence alone, with no `[code]` after it,
            // as it already names the provider and the ids that are configured.
            guard config.provider(account.providerId) != nil else {
                results.append(Result(id: account.id, failure: (.misconfigured, ProviderWiring.unknownProvider(account.providerId, in: config))))
                continue
            }
            // Another tenant than the pinned one: no renewal mends it, none is spent.
            if let refusal = TokenAccess.renewalCannotMendTenant(account, config: config) {
                results.append(Result(id: account.id, failure: (.needsInteraction, refusal.remedy)))
                continue
            }
            wanted.append((account, target.force ? .force : named ? .usableNow(scopes: []) : .expiringSoon))
        }
        for (account, attempt) in await renewal.attemptAll(wanted) {
            results.append(result(account.id, attempt))
        }
        return results.sorted { $0.id < $1.id }
    }

    /// Whether a provider check shows that credentials which look valid no longer work.
    func probeSaysDead(_ stored: StoredAccount) async -> Bool {
        // The assessment holds summaries: the probe sends the cookies, so it reads the account in full.
        guard !stored.credentials.cookies.isEmpty, let full = try? wiring.store.account(id: stored.account.id),
              let adapter = try? wiring.adapter(forProvider: stored.account.providerId, config: config),
              let alive = try? await adapter.probe(full) else { return false }
        return alive == false
    }

    /// When what the renewal just issued expires: its access tokens (those obtained last; the
    /// first of them to expire), else the account's cookies. Not the latest expiry of anything
    /// held — an account with another audience's token living an hour would say "valid until"
    /// that hour while the token just renewed lives 30 s. No skew margin for what the provider has
    /// just issued (a token may live shorter than the margin).
    static func renewedUntil(_ credentials: Credentials, now: Instant) -> Instant? {
        guard let latest = credentials.accessTokens.map(\.obtainedAt).max() else {
            return credentials.usableUntil(at: now, skew: .seconds(0))
        }
        let issued = credentials.accessTokens.filter { $0.obtainedAt == latest }
        return issued.contains { $0.expiresAt == nil } ? nil : issued.compactMap(\.expiresAt).min()
    }

    /// One account's line of the report.
    func result(_ id: String, _ attempt: Renewal.Attempt) -> Result {
        switch attempt {
        case .renewed(let renewed):
            return Result(id: id, expiresAt: Self.renewedUntil(renewed.credentials, now: wiring.clock.now()))
        case .failed(let failure as AuthFailure, _):
            return Result(id: id, failure: (failure.errorClass, failure.description))
        case .failed(let refused as StoreError, _):
            // An edited record or a newer authdeck's store: nothing a retry would change, so not
            // "transient"; said once (the description already names the account).
            let said = "\(refused)"
            let remedy = said.hasPrefix(id + ": ") ? String(said.dropFirst(id.count + 2)) : said
            switch refused {
            case .accountTampered, .newerStore: return Result(id: id, failure: (.misconfigured, remedy))
            default: return Result(id: id, failure: (.transient, remedy))
            }
        case .failed(let error, _):
            return Result(id: id, failure: (.transient, "\(error)"))
        case .deferred(let until):
            // Only renewals ahead are paced, and `refresh` asks for none: kept for completeness.
            return Result(id: id, failure: (.transient, "not renewed again before \(until.iso8601)"))
        }
    }
}
