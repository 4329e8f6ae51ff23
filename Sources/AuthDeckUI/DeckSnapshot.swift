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
        let source = DeckRowDetail.Source(entries: assessment.entries, profiles: profiles, now: now, skew: skew)
        // Entries come grouped by provider: its profile is looked up once per run of them.
        var profileId: String?
        var profile: ProviderProfile?
        // Entries are read in place through a pointer: `for e in entries` (or binding an entry
        // or its account) copied each one, retaining every String inside, three times a row.
        assessment.entries.withUnsafeBufferPointer { entries in
            guard let first = entries.baseAddress else { return }
            for index in 0..<entries.count {
                let e = first + index
                let providerId = e.pointee.stored.account.providerId
                if providerId != profileId {
                    profileId = providerId
                    profile = profiles[providerId]
                }
                var renewable = false
                if case .expired(let r) = e.pointee.state { renewable = r }
                // The detail pane's lines are made when the pane shows the row (one at a time), not
                // here for every account.
                let detail = DeckRowDetail(source: source, index: index, events: events(e.pointee.stored.account.id))
                // Appended first and completed in place. Why: a row is large, and this way it is
                // never copied into the array.
                rows.append(DeckRow(id: e.pointee.stored.account.id, providerId: providerId, providerKind: profile?.kind,
                                    displayName: e.pointee.stored.account.displayName, username: e.pointee.stored.account.username,
                                    realm: e.pointee.stored.account.realm ?? "", state: e.pointee.state, expiry: e.pointee.expiry,
                                    neverExpires: e.pointee.state.isUsable && e.pointee.usableUntil == nil,
                                    lastUsed: e.pointee.stored.account.lastUsedAt, renewable: renewable, detail: detail))
                if profile != nil, renewable, let until = e.pointee.expiry, until > now {
                    // Inside the clock-skew margin: not usable by our clock, still taken by the
                    // provider's — due now, or it lapses while the open deck watches (a
                    // SharePoint cookie renewed only on R).
                    rows[rows.count - 1].renewAt = now
                } else if let p = profile {
                    rows[rows.count - 1].renewAt = KeepAlivePlan.renewalDue(e.pointee, now: now, skew: skew, renewBefore: p.renewBefore,
                                                                            silentRenewal: ProviderCapabilities.renewsWithoutRefreshToken(p, e.pointee.stored.credentials))
                }
            }
        }
        let panes = tally(rows, providers: providers.map { DeckProvider(id: $0.id, kind: $0.kind, accounts: 0, worst: nil) })
        return (rows, panes)
    }

    /// `providers` with each one's count of `rows` and worst state. One pass: rows of one
    /// provider come together, so each run is tallied locally and stored once.
    public static func tally(_ rows: [DeckRow], providers: [DeckProvider]) -> [DeckProvider] {
        var tally: [String: (count: Int, worst: Int, state: AccountState?)] = [:]
        var i = 0
        while i < rows.count {
            let providerId = rows[i].providerId
            var t = tally[providerId] ?? (0, -1, nil)
            while i < rows.count, rows[i].providerId == providerId {
                let severity = rows[i].severity
                t.count += 1
                if severity > t.worst { (t.worst, t.state) = (severity, rows[i].state) }
                i += 1
            }
            tally[providerId] = t
        }
        return providers.map { p in
            DeckProvider(id: p.id, kind: p.kind, accounts: tally[p.id]?.count ?? 0, worst: tally[p.id]?.state)
        }
    }
}
