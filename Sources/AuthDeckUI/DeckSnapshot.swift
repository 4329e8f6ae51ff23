import AuthDeckCore

/// Turns the derived deck (a `DeckAssessment`) into what the screen shows: table rows with
/// their detail lines, and the providers pane. Pure, so the runtime and the tests share it.
public enum DeckSnapshot {
    /// - Parameter events: the last few events of an account (the runtime asks the store only
    ///   for the selected one; tests pass what they like).
    public static func make(_ assessment: DeckAssessment, providers: [ProviderProfile], skew: TimeSpan,
                            events: (String) -> [DeckEvent]) -> (rows: [DeckRow], providers: [DeckProvider]) {
        let now = assessment.now
        let profiles = Dictionary(providers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = assessment.entries.map { e -> DeckRow in
            let a = e.stored.account, c = e.stored.credentials
            let kind = profiles[a.providerId]?.kind
            var detail = ["provider \(a.providerId)\(kind.map { " (\($0.label))" } ?? "") · realm \(a.realm ?? "-") · id \(a.id)"]
            for t in c.accessTokens {
                detail.append("token \(t.scopes.joined(separator: " ")) — \(ExpiryText.describe(t.expiresAt, now: now, neverExpires: true))\(t.isValid(at: now, skew: skew) ? "" : " (not usable)")")
            }
            if let r = c.refreshToken { detail.append("refresh token, generation \(r.generation), obtained \(ExpiryText.ago(r.obtainedAt, now: now))") }
            for k in c.cookies { detail.append("cookie \(k.name) @\(k.domain) — \(ExpiryText.describe(k.expiresAt, now: now, neverExpires: true))") }
            if let err = a.lastError { detail.append("last error \(err.code): \(err.remedy) (\(ExpiryText.ago(err.at, now: now)))") }
            for ev in events(a.id) { detail.append("\(ExpiryText.ago(ev.at, now: now)): \(ev.kind.rawValue) \(ev.detail)") }
            var renewable = false
            if case .expired(let r) = e.state {
                renewable = r
                if !r, let p = profiles[a.providerId], let why = ProviderCapabilities.renewalUnavailableReason(p) { detail.append(why) }
            }
            var row = DeckRow(id: a.id, providerId: a.providerId, providerKind: kind, displayName: a.displayName, username: a.username,
                              realm: a.realm ?? "", state: e.state, expiry: e.expiry, neverExpires: e.state.isUsable && e.usableUntil == nil,
                              lastUsed: a.lastUsedAt, renewable: renewable, detail: detail)
            row.renewAt = profiles[a.providerId].flatMap { p in
                KeepAlivePlan.renewalDue(e, now: now, skew: skew, renewBefore: p.renewBefore,
                                         silentRenewal: ProviderCapabilities.of(p).silentRenewal)
            }
            return row
        }
        let panes = providers.map { p -> DeckProvider in
            let mine = rows.filter { $0.providerId == p.id }
            return DeckProvider(id: p.id, kind: p.kind, accounts: mine.count, worst: mine.max { $0.severity < $1.severity }?.state)
        }
        return (rows, panes)
    }
}
