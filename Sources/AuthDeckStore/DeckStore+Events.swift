import Foundation
import GRDB
import AuthDeckCore

/// The audit trail: append-only rows of what happened, never holding a secret.
extension DeckStore {
    public func append(_ event: DeckEvent) throws {
        try write { db in try Self.insertEvent(event, db) }
    }

    public func events(since: Instant?, accountId: String?, limit: Int?) throws -> [DeckEvent] {
        try events(since: since, accountId: accountId, kinds: nil, limit: limit)
    }

    /// The events of `kinds` only (nil: all), newest `limit` of them in order: what a view over
    /// one sort of event (the agent's hand-outs) reads without the rest of the trail.
    public func events(since: Instant?, accountId: String?, kinds: [DeckEvent.Kind]?, limit: Int?) throws -> [DeckEvent] {
        try read { db in
            var clauses: [String] = []
            var args: StatementArguments = []
            if let kinds {
                clauses.append("kind IN (\(kinds.map { _ in "?" }.joined(separator: ",")))")
                for kind in kinds { _ = args.append(contentsOf: [kind.rawValue]) }
            }
            if let since {
                clauses.append("at >= ?")
                _ = args.append(contentsOf: [since.secondsSinceEpoch])
            }
            if let accountId {
                clauses.append("account_id = ?")
                _ = args.append(contentsOf: [accountId])
            }
            let whereSQL = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
            let limitSQL = limit.map { " LIMIT \($0)" } ?? ""
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM (SELECT * FROM events\(whereSQL) ORDER BY id DESC\(limitSQL)) ORDER BY id",
                                        arguments: args)
            return rows.map { row in
                DeckEvent(id: row["id"], at: Instant(secondsSinceEpoch: row["at"]),
                          kind: DeckEvent.Kind(rawValue: row["kind"]) ?? .other,
                          accountId: row["account_id"], providerId: row["provider_id"], detail: row["detail"])
            }
        }
    }

    static func insertEvent(_ e: DeckEvent, _ db: Database) throws {
        // A cached statement: prune writes one event per account, 100,000 in one transaction.
        try db.cachedStatement(sql: "INSERT INTO events (at, kind, account_id, provider_id, detail) VALUES (?,?,?,?,?)")
            .execute(arguments: [e.at.secondsSinceEpoch, e.kind.rawValue, e.accountId, e.providerId, e.detail])
    }
}
