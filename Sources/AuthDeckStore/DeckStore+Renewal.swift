import Foundation
import GRDB
import AuthDeckCore
import AuthDeckPlatform
#if canImport(Glibc)
import Glibc
#endif

/// Refresh single-flight across processes: leases, compare-and-swap commits, failures.
///
/// A lease row is taken in an IMMEDIATE transaction, so two processes cannot both see the
/// lease free. The refresh token's generation is compared before the renewed credentials
/// are written, in the same transaction, so a second writer cannot overwrite a rotation.
extension DeckStore {
    public func acquireRenewalLease(accountId: String, holder: String, until: Instant, now: Instant) throws -> Bool {
        try writeWithoutTransaction { db in
            var taken = false
            try db.inTransaction(.immediate) {
                let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT holder, expires_at FROM leases WHERE account_id = ?"), arguments: [accountId])
                if let row {
                    let current: String = row["holder"]
                    let expires = Instant(secondsSinceEpoch: row["expires_at"])
                    // A lease lasting past any this code grants (`until`, give or take a minute of
                    // clock steps) was written by no authdeck: it would block renewals for ever.
                    let forged = expires > until + .seconds(60)
                    let free = current == holder || expires <= now || forged || !Self.holderAlive(current)
                    guard free else { return .commit }
                }
                try db.cachedStatement(sql: "REPLACE INTO leases (account_id, holder, expires_at) VALUES (?, ?, ?)")
                    .execute(arguments: [accountId, holder, until.secondsSinceEpoch])
                taken = true
                return .commit
            }
            return taken
        }
    }

    public func releaseRenewalLease(accountId: String, holder: String) throws {
        try write { db in
            try db.cachedStatement(sql: "DELETE FROM leases WHERE account_id = ? AND holder = ?").execute(arguments: [accountId, holder])
        }
    }

    /// Writes renewed credentials when the account still holds the refresh token `expected`
    /// (false, and nothing written, when another writer rotated it first or a sign-in replaced
    /// it), durably.
    public func commitRenewal(_ credentials: Credentials, accountId: String, expected: RefreshTokenStamp?,
                              event: DeckEvent) throws -> Bool {
        try commitRenewals([RenewalCommit(credentials: credentials, accountId: accountId, expected: expected,
                                          event: event)])[0].get()
    }

    /// `commitRenewal` for a renewal under way in a task: it waits off Swift's pool, and the
    /// renewals that finish while one group is being written are committed together in the next
    /// (`RenewalCommits`: one fdatasync for all of them instead of one each).
    public func commitRenewalInGroup(_ credentials: Credentials, accountId: String, expected: RefreshTokenStamp?,
                                     event: DeckEvent) async throws -> Bool {
        try await commits.commit(RenewalCommit(credentials: credentials, accountId: accountId,
                                               expected: expected, event: event), in: self)
    }

    /// Commits each of `group` in one transaction, each in a savepoint of its own with its own
    /// check of the refresh token held; a result per commit, in order. Throws only when the transaction itself
    /// fails (then nothing of it was written).
    func commitRenewals(_ group: [RenewalCommit]) throws -> [Result<Bool, any Error>] {
        try writeWithoutTransaction { db in
            // Durable before the new token is printed or the rescue file goes: in WAL mode at
            // synchronous=NORMAL a commit reaches the disk only at the next checkpoint, so a
            // power cut could roll back the successor of a refresh token the provider has spent.
            // FULL syncs the WAL at this commit (one fdatasync); the connection's own setting
            // comes back after.
            let before = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 1
            try db.execute(sql: "PRAGMA synchronous = FULL")
            defer { try? db.execute(sql: "PRAGMA synchronous = \(before)") }
            var results: [Result<Bool, any Error>] = []
            try db.inTransaction(.immediate) {
                for commit in group {
                    results.append(Result { try worded { try commitOne(commit, db) } })
                }
                return .commit
            }
            return results
        }
    }

    /// One renewal's writes, in a savepoint: all of them or none.
    private func commitOne(_ commit: RenewalCommit, _ db: Database) throws -> Bool {
        var committed = false
        try db.inSavepoint {
            let held = try Row.fetchOne(db.cachedStatement(sql: "SELECT generation, id FROM refresh_tokens WHERE account_id = ?"),
                                        arguments: [commit.accountId]).map { RefreshTokenStamp(generation: $0[0], id: $0[1]) }
            guard RefreshTokenStamp.holds(held, commit.expected) else { return .rollback }
            try writeCredentials(commit.credentials, accountId: commit.accountId, db)
            try db.cachedStatement(sql: """
                UPDATE accounts SET error_class = NULL, error_code = NULL, error_remedy = NULL, error_at = NULL,
                failed_attempts = 0 WHERE id = ?
                """).execute(arguments: [commit.accountId])
            try Self.insertEvent(commit.event, db)
            committed = true
            return .commit
        }
        return committed
    }

    public func recordFailure(accountId: String, error: AccountError?, event: DeckEvent) throws {
        try write { db in
            if let error {
                try db.execute(sql: """
                    UPDATE accounts SET error_class = ?, error_code = ?, error_remedy = ?, error_at = ?,
                    failed_attempts = failed_attempts + 1 WHERE id = ?
                    """, arguments: [error.errorClass.rawValue, error.code, error.remedy, error.at.secondsSinceEpoch, accountId])
            }
            try Self.insertEvent(event, db)
        }
    }

    /// A holder is `pid@host` or `pid@host/suffix`. On this host a holder whose process is
    /// gone has lost its lease (a crashed `authdeck` must not block renewals until it lapses).
    static func holderAlive(_ holder: String) -> Bool {
        let parts = holder.split(separator: "@", maxSplits: 1)
        guard parts.count == 2, let pid = Int32(parts[0]),
              parts[1].split(separator: "/", maxSplits: 1).first.map(String.init) == hostName else { return true }
        // (A zombie — killed, not yet reaped — holds nothing: it kept others waiting a minute.)
        return ProcessIdentity(pid: pid, startTicks: nil).isRunning
    }

    /// The lease holder name of this process.
    public static var leaseHolder: String { "\(getpid())@\(hostName)" }

    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
