/// One identity signed in (or being signed in) at one provider.
///
/// The account row holds who it is and what happened to it; the credentials live beside
/// it (`Credentials`) and the state is derived from both (`AccountState.derive`).
public struct Account: Equatable, Hashable, Sendable {
    /// Stable handle used on the command line: `<provider>/<8 hex>`.
    public var id: String
    public var providerId: String
    /// The provider's stable user key: Azure `home_account_id`, Facebook user id, OIDC `iss`+`sub`.
    public var subject: String
    public var username: String
    public var displayName: String
    /// Tenant, realm or site the account's tokens were issued in.
    public var realm: String?
    public var createdAt: Instant
    public var lastSignInAt: Instant?
    public var lastUsedAt: Instant?
    public var lastError: AccountError?
    public var failedAttempts: Int
    /// Set while the account sits in the prune quarantine (restorable for 30 days).
    public var quarantinedAt: Instant?
    public var quarantineReason: String?

    /// Inlinable so a caller builds the account in place. Why: a listing makes one per row, and
    /// an outlined init copied each one once more.
    @inlinable
    public init(
        id: String, providerId: String, subject: String, username: String, displayName: String = "",
        realm: String? = nil, createdAt: Instant, lastSignInAt: Instant? = nil, lastUsedAt: Instant? = nil,
        lastError: AccountError? = nil, failedAttempts: Int = 0, quarantinedAt: Instant? = nil,
        quarantineReason: String? = nil
    ) {
        self.id = id
        self.providerId = providerId
        self.subject = subject
        self.username = username
        self.displayName = displayName
        self.realm = realm
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
        self.lastUsedAt = lastUsedAt
        self.lastError = lastError
        self.failedAttempts = failedAttempts
        self.quarantinedAt = quarantinedAt
        self.quarantineReason = quarantineReason
    }

    /// A fresh account id for a provider: the provider slug plus 8 random hex digits.
    ///
    /// Random rather than derived from the subject, because duplicates of one subject must
    /// be distinct rows that pruning can tell apart.
    public static func makeID<G: RandomNumberGenerator>(provider: String, using rng: inout G) -> String {
        let n = UInt32.random(in: 0 ... UInt32.max, using: &rng)
        let hex = String(n, radix: 16)
        return "\(provider)/" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    public static func makeID(provider: String) -> String {
        var rng = SystemRandomNumberGenerator()
        return makeID(provider: provider, using: &rng)
    }
}
