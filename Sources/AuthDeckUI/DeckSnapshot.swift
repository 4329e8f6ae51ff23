import AuthDeckCore

/// Turns the derived deck (a `DeckAssessment`) into what the screen shows: table rows with
/// their detail lines, and the providers pane. Pure, so the runtime and the tests share it.
public enum DeckSnapshot {
    /// - Parameter events: the last few events of an account, nil when not read (the runtime
    ///   asks the store only for the selected one; tests pass what they like).
    public static func make(_ assessment: DeckAssessment, providers: [ProviderProfile], skew: TimeSpan,
                            events: (String) -> [DeckEvent]?) -> (rows: [DeckRow], providers: [DeckProvider]) {
        let now = assessment.now
        let profiles = Dictionary(providers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var rows: [DeckRow] = []
        rows.reserveCapacity(assessment.entries.count)
        let source = DeckRowDetail.Source(entries: assessment.entries, profiles: profiles, now: now, skew: skew)
        // Entries come grouped by provider: its profile is looked up once per run of them.
        var profileId: String?
        var profile: ProviderProfile?
        var keepsRegistration = false
        let entries = assessment.entries
        for index in entries.indices {
            let providerId = entries[index].stored.account.providerId
            if providerId != profileId {
                profileId = providerId
                profile = profiles[providerId]
                // Once per provider run, not per row (it builds the capabilities' arrays).
                keepsRegistration = profile.map { ProviderCapabilities.of($0).keepsRegistration } ?? false
            }
            let state = entries[index].state, expiry = entries[index].expiry
            let renewable = state.renewable ?? false
            // The detail pane's lines are made when the pane shows the row (one at a time), not
            // here for every account.
            let id = entries[index].stored.account.id
            let detail = DeckRowDetail(source: source, index: index, events: events(id))
            rows.append(DeckRow(id: id, providerId: providerId, providerKind: profile?.kind,
                                displayName: entries[index].stored.account.displayName, username: entries[index].stored.account.username,
                                realm: entries[index].stored.account.realm ?? "", state: state, expiry: expiry,
                                neverExpires: state.isUsable && entries[index].usableUntil == nil,
                                lastUsed: entries[index].stored.account.lastUsedAt, renewable: renewable, detail: detail))
            rows[rows.count - 1].keepsRegistration = keepsRegistration
            let held = entries[index].stored.credentials
            rows[rows.count - 1].holdsNothing = held.accessTokens.isEmpty && held.refreshToken == nil && held.cookies.isEmpty
            if profile != nil, renewable, let until = expiry, until > now {
                // Inside the clock-skew margin: not usable by our clock, still taken by the
                // provider's — due now, or it lapses while the open deck watches (a
                // SharePoint cookie renewed only on R).
                rows[rows.count - 1].renewAt = now
            } else if let p = profile {
                rows[rows.count - 1].renewAt = KeepAlivePlan.renewalDue(entries[index], now: now, skew: skew, renewBefore: p.renewBefore,
                                                                        silentRenewal: ProviderCapabilities.renewsWithoutRefreshToken(p, entries[index].stored.credentials))
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
            var counted = p
            (counted.accounts, counted.worst) = (tally[p.id]?.count ?? 0, tally[p.id]?.state)
            return counted
        }
    }
}
