/// Everything an account holds that lets it act: tokens, cookies, id-token claims, extras.
public struct Credentials: Equatable, Hashable, Sendable {
    public var accessTokens: [AccessToken]
    public var refreshToken: RefreshToken?
    /// Claims of the last id_token (`iss`, `sub`, `tid`, `preferred_username`, `name`…),
    /// kept as strings for display; the token itself is not needed after validation.
    public var idTokenClaims: [String: String]
    public var cookies: [Cookie]
    /// Provider-specific secrets (OAM client assertion, registration handle, stored password).
    public var extras: [String: Secret]

    public init(accessTokens: [AccessToken] = [], refreshToken: RefreshToken? = nil,
                idTokenClaims: [String: String] = [:], cookies: [Cookie] = [], extras: [String: Secret] = [:]) {
        self.accessTokens = accessTokens
        self.refreshToken = refreshToken
        self.idTokenClaims = idTokenClaims
        self.cookies = cookies
        self.extras = extras
    }

    public static let empty = Credentials()

    /// True when nothing at all is held (a sign-in that never completed, or a sign-out).
    public var isEmpty: Bool {
        accessTokens.isEmpty && refreshToken == nil && cookies.isEmpty && extras.isEmpty
    }

    /// The best access token to hand out for `scopes` at `now`: valid, covering the scopes
    /// (with none asked, one of the provider's configured scopes: another audience's token is
    /// used only when asked for by scope), and the one that lives longest.
    public func usableAccessToken(for scopes: [String], at now: Instant, skew: TimeSpan) -> AccessToken? {
        accessTokens
            .filter { $0.isValid(at: now, skew: skew) && $0.covers(scopes) }
            .max { ($0.expiresAt ?? Instant(secondsSinceEpoch: .max)) < ($1.expiresAt ?? Instant(secondsSinceEpoch: .max)) }
    }

    /// The cookie set is usable when there is one and none of its cookies has lapsed:
    /// a site session needs all of them (FedAuth without rtFa is signed out).
    public func cookiesUsable(at now: Instant, skew: TimeSpan) -> Bool {
        !cookies.isEmpty && cookies.allSatisfy { $0.isValid(at: now, skew: skew) }
    }

    /// Whether something can be presented at `now`.
    /// (Asked of every account whenever a deck is derived: no array is filtered for it.)
    public func hasUsableCredential(at now: Instant, skew: TimeSpan) -> Bool {
        accessTokens.contains { $0.isValid(at: now, skew: skew) } || cookiesUsable(at: now, skew: skew)
    }

    /// When what is usable now stops being usable: the latest-expiring valid access token,
    /// or the earliest-expiring cookie of a usable set; nil when nothing known expires.
    /// Returns nil also when nothing is usable — callers check `hasUsableCredential` first.
    public func usableUntil(at now: Instant, skew: TimeSpan) -> Instant? {
        var best: Instant?
        var unbounded = false
        for token in accessTokens where token.isValid(at: now, skew: skew) {
            guard let e = token.expiresAt else { unbounded = true; continue }
            best = max(best ?? e, e)
        }
        if cookiesUsable(at: now, skew: skew) {
            let expiries = cookies.compactMap(\.expiresAt)
            if let first = expiries.min() {
                best = max(best ?? first, first)
            } else {
                unbounded = true
            }
        }
        return unbounded ? nil : best
    }

    /// When the credentials last stopped being usable: the latest expiry of anything held.
    public var lastExpiry: Instant? {
        (accessTokens.compactMap(\.expiresAt) + cookies.compactMap(\.expiresAt)).max()
    }
}
