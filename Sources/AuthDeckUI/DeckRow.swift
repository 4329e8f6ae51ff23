import AuthDeckCore

/// One account as the deck shows it: what the table and the detail pane need, already
/// derived (state, expiry) and already made terminal-safe.
public struct DeckRow: Equatable, Sendable {
    public var id: String
    public var providerId: String
    public var providerKind: ProviderKind?
    /// Its provider keeps a registration at sign-out (`ProviderCapabilities.keepsRegistration`).
    public var keepsRegistration = false
    /// Its provider's default account (`authdeck use`): the USER cell ends with ` *`.
    public var isDefault = false
    /// It holds no credential at all (signed out with its registration kept, or a sign-in
    /// that never finished): there is nothing to sign out.
    public var holdsNothing = false
    public var displayName: String
    public var username: String
    public var realm: String
    public var state: AccountState
    public var expiry: Instant?
    public var neverExpires: Bool
    public var lastUsed: Instant?
    public var renewable: Bool
    /// The detail pane's lines at `now`, made from `details` when the pane shows the row.
    public func detail(now: Instant) -> [String] { details.lines(now: now) }
    var details: DeckRowDetail
    /// Whether the detail holds the account's recent events (`DeckRowDetail.eventsRead`).
    public var eventsRead: Bool { details.eventsRead }
    /// When the open deck renews this account by itself (its provider's `renew_before` ahead of
    /// expiry); nil when it cannot renew silently.
    public var renewAt: Instant?

    /// A row whose detail lines are made from `detail` when the pane shows it.
    public init(id: String, providerId: String, providerKind: ProviderKind?, displayName: String, username: String, realm: String,
                state: AccountState, expiry: Instant?, neverExpires: Bool, lastUsed: Instant?, renewable: Bool, detail: DeckRowDetail) {
        self.id = id
        self.providerId = providerId
        self.providerKind = providerKind
        self.displayName = TerminalText.inert(displayName)
        self.username = TerminalText.inert(username)
        self.realm = TerminalText.inert(realm)
        self.state = state
        self.expiry = expiry
        self.neverExpires = neverExpires
        self.lastUsed = lastUsed
        self.renewable = renewable
        self.details = detail
    }

    /// How bad the state is, for sorting providers by their worst account.
    public var severity: Int {
        switch state {
        case .signedIn: return 0
        case .expiringSoon, .renewDue: return 1
        case .expired(true): return 2
        case .expired(false): return 3
        case .needsSignIn: return 4
        case .stale: return 5
        case .failed: return 6
        }
    }
}

/// One provider as the providers pane shows it.
public struct DeckProvider: Equatable, Sendable {
    public var id: String
    public var kind: ProviderKind
    public var accounts: Int
    public var worst: AccountState?
    /// Its client was registered at the issuer by authdeck (RFC 7591), not configured: the
    /// provider pane marks it `·dyn`.
    public var dynamicClient = false

    public init(id: String, kind: ProviderKind, accounts: Int, worst: AccountState?) {
        self.id = id
        self.kind = kind
        self.accounts = accounts
        self.worst = worst
    }
}
