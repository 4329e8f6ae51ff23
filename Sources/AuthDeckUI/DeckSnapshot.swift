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
        var rows: [DeckRow] = []
        rows.reserveCapacity(assessment.entries.count)
        for e in assessment.entries {
            let a = e.stored.account
            let profile = profiles[a.providerId]
            var renewable = false
            if case .expired(let r) = e.state { renewable = r }
            // The detail pane's lines are made when the pane shows the row (one at a time), not
            // here for every account: at 10,000 accounts they were most of the first frame.
            let detail = DeckRowDetail(stored: e.stored, profile: profile, state: e.state, now: now, skew: skew, events: events(a.id))
            // Appended first and completed in place: a row is large, and copying it into the
            // array was a fifth of this function at 10,000 accounts.
            rows.append(DeckRow(id: a.id, providerId: a.providerId, providerKind: profile?.kind, displayName: a.displayName,
                                username: a.username, realm: a.realm ?? "", state: e.state, expiry: e.expiry,
                                neverExpires: e.state.isUsable && e.usableUntil == nil, lastUsed: a.lastUsedAt,
                                renewable: renewable, detail: detail))
            rows[rows.count - 1].renewAt = profile.flatMap { p in
                KeepAlivePlan.renewalDue(e, now: now, skew: skew, renewBefore: p.renewBefore,
                                         silentRenewal: ProviderCapabilities.of(p).silentRenewal)
            }
        }
        // One pass for every provider's count and worst state (filtering the rows per provider
        // copied every row once for each provider).
        var tally: [String: (count: Int, worst: Int, state: AccountState?)] = [:]
        for i in rows.indices {
            let severity = rows[i].severity
            var t = tally[rows[i].providerId] ?? (0, -1, nil)
            t.count += 1
            if severity > t.worst { (t.worst, t.state) = (severity, rows[i].state) }
            tally[rows[i].providerId] = t
        }
        let panes = providers.map { p in
            DeckProvider(id: p.id, kind: p.kind, accounts: tally[p.id]?.count ?? 0, worst: tally[p.id]?.state)
        }
        return (rows, panes)
    }
}
