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
    /// `stillStale` gets the unquarantined accounts sharing a candidate's provider and subject
    /// (a duplicate's verdict depends on its group), as summaries: no secret is opened.
    public func quarantine(_ candidates: [PruneCandidate], at: Instant,
                           stillStale: ([StoredAccount]) -> [PruneCandidate]) throws -> [PruneCandidate] {
        try write { db in
            var current: [StoredAccount] = []
            var seen = Set<String>()
            for candidate in candidates where !seen.contains(candidate.account.id) {
                let group = try Self.accounts(db, where: " WHERE quarantined_at IS NULL AND (provider_id, subject) = "
                                              + "(SELECT provider_id, subject FROM accounts WHERE id = ?)",
                                              arguments: [.text(candidate.account.id)])
                for account in group where seen.insert(account.id).inserted {
                    var credentials = Credentials.empty
                    try loadCredentials(db, scope: .account(account.id), openSecrets: false) { _, _ in 0 } apply: { _, change in try change(&credentials) }
                    current.append(StoredAccount(account: account, credentials: credentials))
                }
            }
            current.sort { Self.listedBefore($0.account, $1.account) }
            let confirmed = Dictionary(stillStale(current).map { ($0.account.id, $0) }, uniquingKeysWith: { a, _ in a })
            var quarantined: [PruneCandidate] = []
            let update = try db.cachedStatement(sql: "UPDATE accounts SET quarantined_at = ?, quarantine_reason = ? WHERE id = ? AND quarantined_at IS NULL")
            for candidate in candidates {
                guard let now = confirmed[candidate.account.id] else { continue }
                try update.execute(arguments: [at.secondsSinceEpoch, now.reason.sentence, now.account.id])
                guard db.changesCount == 1 else { continue }
                try resealAccount(now.account.id, quarantined: true, db)
                try Self.insertEvent(DeckEvent(at: at, kind: .pruned, accountId: now.account.id,
                                               providerId: now.account.providerId, detail: now.reason.sentence), db)
                quarantined.append(now)
            }
            return quarantined
        }
    }
}
