extension DeckAssessment {
    /// The first instant after `now` at which time alone may change what `derive` and the prune
    /// policy say of `stored` (a credential lapsing or entering the "expiring soon" window, a
    /// grace period ending), or nil when none is ahead. Why: an open deck rereads the store
    /// then, instead of on a timer, when no other process changed it.
    /// Never late, sometimes early: every instant where a rule's answer flips is a candidate.
    public static func nextChange(_ stored: StoredAccount, statePolicy: StatePolicy, pruneSettings: PruneSettings,
                                  now: Instant) -> Instant? {
        var next: Instant?
        func consider(_ instant: Instant) {
            if instant > now, instant < (next ?? instant + .seconds(1)) { next = instant }
        }
        let skew = statePolicy.clockSkew, window = statePolicy.expiringSoonWindow
        let credentials = stored.credentials
        // Two loops, not one over a joined array: this runs for every account on every reread.
        for token in credentials.accessTokens {
            if let expiry = token.expiresAt { consider(expiry); consider(expiry - skew); consider(expiry - skew - window) }
        }
        for cookie in credentials.cookies {
            if let expiry = cookie.expiresAt { consider(expiry); consider(expiry - skew); consider(expiry - skew - window) }
        }
        if let expiry = credentials.refreshToken?.expiresAt { consider(expiry) }
        let account = stored.account
        consider(account.createdAt + pruneSettings.signInGrace)
        if let error = account.lastError { consider(error.at + pruneSettings.rejectedGrace) }
        if let unusedAfter = pruneSettings.unusedAfter {
            let last = max(account.lastUsedAt ?? account.createdAt, account.lastSignInAt ?? account.createdAt, account.createdAt)
            consider(last + unusedAfter)
        }
        return next
    }
}
