import AuthDeckCore

/// What the deck's detail pane lists for one account — provider and realm, each token and
/// cookie with its expiry, the refresh token, the last error, recent events — kept as the data
/// and turned into lines only when the pane shows the row.
///
/// Why: the deck shows one account's details at a time, and making the lines of all 10,000
/// accounts of a large store up front was most of the time to the first frame.
///
/// The data sits in one immutable box, so copying a row (the deck sorts and gathers 10,000 of
/// them) costs one reference count instead of one per string and array of the account.
public struct DeckRowDetail: Equatable, Sendable {
    private let box: Box

    public init(stored: StoredAccount, profile: ProviderProfile?, state: AccountState, now: Instant, skew: TimeSpan,
                events: [DeckEvent]) {
        box = Box(stored: stored, profile: profile, state: state, now: now, skew: skew, events: events)
    }

    public static func == (a: DeckRowDetail, b: DeckRowDetail) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    private final class Box: Sendable {
        let stored: StoredAccount
        let profile: ProviderProfile?
        let state: AccountState
        let now: Instant
        let skew: TimeSpan
        let events: [DeckEvent]

        init(stored: StoredAccount, profile: ProviderProfile?, state: AccountState, now: Instant, skew: TimeSpan, events: [DeckEvent]) {
            self.stored = stored
            self.profile = profile
            self.state = state
            self.now = now
            self.skew = skew
            self.events = events
        }

        /// Everything, for equality.
        var fields: Fields { Fields(stored: stored, profile: profile, state: state, now: now, skew: skew, events: events) }
    }

    private struct Fields: Equatable {
        var stored: StoredAccount, profile: ProviderProfile?, state: AccountState, now: Instant, skew: TimeSpan, events: [DeckEvent]
    }

    /// The lines, made terminal-safe.
    public var lines: [String] {
        let a = box.stored.account, c = box.stored.credentials
        let profile = box.profile, now = box.now, skew = box.skew, events = box.events, state = box.state
        var detail = ["provider \(a.providerId)\(profile.map { " (\($0.kind.label))" } ?? "") · realm \(a.realm ?? "-") · id \(a.id)"]
        for t in c.accessTokens {
            detail.append("token \(t.scopes.joined(separator: " ")) — \(ExpiryText.describe(t.expiresAt, now: now, neverExpires: true))\(t.isValid(at: now, skew: skew) ? "" : " (not usable)")")
        }
        if let r = c.refreshToken { detail.append("refresh token, generation \(r.generation), obtained \(ExpiryText.ago(r.obtainedAt, now: now))") }
        for k in c.cookies { detail.append("cookie \(k.name) @\(k.domain) — \(ExpiryText.describe(k.expiresAt, now: now, neverExpires: true))") }
        if let err = a.lastError { detail.append("last error \(err.code): \(err.remedy) (\(ExpiryText.ago(err.at, now: now)))") }
        for ev in events { detail.append("\(ExpiryText.ago(ev.at, now: now)): \(ev.kind.rawValue) \(ev.detail)") }
        if case .expired(false) = state, let p = profile, let why = ProviderCapabilities.renewalUnavailableReason(p) {
            detail.append(why)
        }
        return detail.map(TerminalText.inert)
    }
}
