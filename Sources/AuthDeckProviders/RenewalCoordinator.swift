import AuthDeckCore

/// Renews accounts silently with single-flight across processes: the settings every renewal
/// shares, and the freshness rule; each renewal's steps are a `RenewalRun`.
public struct RenewalCoordinator: Sendable {
    public let store: any AccountStore
    public let clock: any WallClock
    /// This process's lease-holder name (`pid@host`); each renewal adds its own suffix, so
    /// two renewals in one process exclude each other too.
    public let holder: String
    public let skew: TimeSpan
    /// How long to wait for another process's renewal before giving up (transient).
    public let leaseWait: TimeSpan
    /// How long a lease is held at most (longer than any request's timeout).
    public let leaseTTL: TimeSpan

    public init(store: any AccountStore, clock: any WallClock, holder: String, skew: TimeSpan,
                leaseWait: TimeSpan = .seconds(60), leaseTTL: TimeSpan = .seconds(90)) {
        self.store = store
        self.clock = clock
        self.holder = holder
        self.skew = skew
        self.leaseWait = leaseWait
        self.leaseTTL = leaseTTL
    }

    /// Renews `accountId` if it needs it (or always with `force`) and returns it as stored.
    public func renew(_ accountId: String, with adapter: any ProviderAdapter, scopes: [String] = [],
                      force: Bool = false, window: TimeSpan = .seconds(0)) async throws -> StoredAccount {
        try await renewIfNeeded(accountId, with: adapter, scopes: scopes, force: force, window: window).stored
    }

    /// `renew`, saying whether the provider was asked (false: the account was fresh enough,
    /// perhaps because another process had just renewed it). The steps are `RenewalRun`'s.
    public func renewIfNeeded(_ accountId: String, with adapter: any ProviderAdapter, scopes: [String] = [],
                              force: Bool = false, window: TimeSpan = .seconds(0)) async throws -> (stored: StoredAccount, asked: Bool) {
        try await run(accountId, isFresh: { [self] in !force && fresh($0, scopes: scopes, window: window) })
            .perform(asking: adapter, scopes: scopes)
    }

    /// One renewal's steps for `accountId`, under a lease-holder name of its own (this
    /// process's with a suffix), so two renewals in one process exclude each other too.
    func run(_ accountId: String, isFresh: @escaping @Sendable (StoredAccount) -> Bool) -> RenewalRun {
        RenewalRun(store: store, clock: clock, skew: skew, accountId: accountId,
                   holder: holder + "/" + String(UInt64.random(in: 0...UInt64.max), radix: 36),
                   leaseWait: leaseWait, leaseTTL: leaseTTL, isFresh: isFresh)
    }

    /// Holds a token for `scopes` (and, for cookie accounts, a cookie set) that outlives
    /// `window`, so there is nothing to do.
    func fresh(_ stored: StoredAccount, scopes: [String], window: TimeSpan) -> Bool {
        let now = clock.now()
        if !stored.credentials.cookies.isEmpty {
            guard stored.credentials.cookiesUsable(at: now + window, skew: skew) else { return false }
            if stored.credentials.accessTokens.isEmpty { return true }
        }
        guard let token = stored.credentials.usableAccessToken(for: scopes, at: clock.now(), skew: skew) else { return false }
        guard let expiry = token.expiresAt else { return true }
        return expiry - skew - clock.now() > window
    }
}
