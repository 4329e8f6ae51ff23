import GRDB
import AuthDeckCore
import AuthDeckSQLite

extension DeckStore {
    /// Quarantines those of `candidates` that `stillStale` still finds stale in the store as it
    /// is inside the write transaction; returns them, each with the reason found then.
    ///
    /// Why the verdict is taken again here: between a preview and the person's `y`, another
    /// process may have signed an account in again (or renewed, removed or pruned it). The
    /// write lock is held from this read to the update, so nothing can change in between.
    /// `stillStale` gets every unquarantined account as it is now, as summaries (no secret is
    /// opened), in listing order.
    public func quarantine(_ candidates: [PruneCandidate]?, at: Instant,
                           stillStale: ([StoredAccount]) -> [PruneCandidate]) throws -> [PruneCandidate] {
        try write { db in
            // Every unquarantined account in one pass (summaries, listing order), not one group
            // query per candidate: a prune of 100,000 accounts takes 52 s that way, and the
            // verdicts (duplicates, wrong tenants) depend on the whole set anyway.
            let current = try accounts(db, includeQuarantined: false, openSecrets: false)
            let found = stillStale(current)
            let confirmed = Dictionary(found.map { ($0.account.id, $0) }, uniquingKeysWith: { a, _ in a })
            var quarantined: [PruneCandidate] = []
            let update = try db.cachedStatement(sql: """
                UPDATE accounts SET quarantined_at = ?, quarantine_reason = ? WHERE id = ? AND quarantined_at IS NULL
                RETURNING provider_id, subject, username, realm, seal
                """)
            for candidate in candidates ?? found {
                guard let now = confirmed[candidate.account.id],
                      let moved = try Row.fetchOne(update, arguments: [at.secondsSinceEpoch, now.reason.sentence, now.account.id]) else { continue }
                try resealAccount(now.account.id, row: moved, quarantined: true, db)
                try Self.insertEvent(DeckEvent(at: at, kind: .pruned, accountId: now.account.id,
                                               providerId: now.account.providerId, detail: now.reason.sentence), db)
                quarantined.append(now)
            }
            return quarantined
        }
    }
}
