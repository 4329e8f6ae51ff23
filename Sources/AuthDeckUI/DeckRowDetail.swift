import AuthDeckCore

/// What the deck's detail pane lists for one account, kept as data until the pane shows it.
///
/// Provider and realm, each token (a WebGate's by realm and origin) and cookie with its expiry,
/// the refresh token, the last error, recent events. Why lines are made late: the pane shows
/// one account at a time.
///
/// The data is the snapshot's own: every row of a snapshot points into one shared `Source`
/// (the assessment's entries). Why: a row copy then costs one reference count, no account copy.
public struct DeckRowDetail: Equatable, Sendable {
    private let source: Source
    private let index: Int
    private let events: [DeckEvent]?

    /// What the rows of one snapshot share: the assessment's entries, the configured
    /// providers by id, the instant and the clock skew.
    public final class Source: Sendable {
        let entries: [DeckAssessment.Entry]
        let profiles: [String: ProviderProfile]
        let now: Instant
        let skew: TimeSpan

        public init(entries: [DeckAssessment.Entry], profiles: [String: ProviderProfile], now: Instant, skew: TimeSpan) {
            self.entries = entries
            self.profiles = profiles
            self.now = now
            self.skew = skew
        }
    }

    /// The detail of `source.entries[index]`, with the account's recent `events` (nil: not read
    /// for this snapshot, which reads them only for the selected account).
    public init(source: Source, index: Int, events: [DeckEvent]?) {
        precondition(source.entries.indices.contains(index))
        self.source = source
        self.index = index
        self.events = events
    }

    /// The same detail with the account's recent `events`.
    public func with(events: [DeckEvent]) -> DeckRowDetail {
        DeckRowDetail(source: source, index: index, events: events)
    }

    /// Whether the account's recent events were read: the reducer asks for them when a row
    /// whose events were not read is selected (the pane promises "recent events").
    public var eventsRead: Bool { events != nil }

    public static func == (a: DeckRowDetail, b: DeckRowDetail) -> Bool {
        guard a.events == b.events else { return false }
        if a.source === b.source && a.index == b.index { return true }
        return a.fields == b.fields
    }

    /// Everything the lines are made of, for equality across snapshots.
    private var fields: Fields {
        let entry = source.entries[index]
        return Fields(stored: entry.stored, profile: source.profiles[entry.stored.account.providerId], state: entry.state,
                      now: source.now, skew: source.skew)
    }

    private struct Fields: Equatable {
        var stored: StoredAccount, profile: ProviderProfile?, state: AccountState, now: Instant, skew: TimeSpan
    }

    /// The lines at `now`, made terminal-safe. Why the caller's instant and not the
    /// snapshot's: the pane's countdowns must tick with the table's, from one clock.
    public func lines(now: Instant) -> [String] {
        let entry = source.entries[index]
        let a = entry.stored.account, c = entry.stored.credentials
        let profile = source.profiles[a.providerId], skew = source.skew, state = entry.state
        // No "realm -" where none applies (an OIDC or Facebook account has no tenant).
        var detail = ["provider \(a.providerId)\(profile.map { " (\($0.kind.label))" } ?? "")\(a.realm.map { " · realm \($0)" } ?? "") · id \(a.id)"]
        for t in c.accessTokens {
            // A WebGate token's scope is its realm and origin (`WebGateRealm`): shown as such.
            let what = WebGateRealm(token: t).map { "WebGate token, realm \($0.realm) at \($0.origin)" } ?? "token \(t.scopes.joined(separator: " "))"
            detail.append("\(what) — \(ExpiryText.describe(t.expiresAt, now: now, neverExpires: true))\(t.isValid(at: now, skew: skew) ? "" : " (not usable)")")
        }
        if let r = c.refreshToken { detail.append("refresh token, generation \(r.generation), obtained \(ExpiryText.ago(r.obtainedAt, now: now))") }
        for k in c.cookies { detail.append("cookie \(k.name) @\(k.domain) — \(ExpiryText.describe(k.expiresAt, now: now, neverExpires: true))") }
        if let err = a.lastError { detail.append("last error \(err.code): \(err.remedy) (\(ExpiryText.ago(err.at, now: now)))") }
        for ev in events ?? [] { detail.append("\(ExpiryText.ago(ev.at, now: now)): \(EventSentence.of(ev))") }
        if case .expired(false) = state, let p = profile, let why = ProviderCapabilities.renewalUnavailableReason(p) {
            detail.append(why)
        }
        return detail.map(TerminalText.inert)
    }
}
