import Foundation
import GRDB
import AuthDeckCore

/// The `AccountStore` port over SQLite: account rows, sealed credentials, quarantine.
extension DeckStore: AccountStore {
    public func accounts(includeQuarantined: Bool = false) throws -> [StoredAccount] {
        try pool.read { db in
            let filter = includeQuarantined ? "" : " WHERE quarantined_at IS NULL"
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM accounts\(filter) ORDER BY provider_id, username, id")
            var credentials = try loadCredentials(db, accountId: nil)
            return rows.map { row in
                let account = Self.account(from: row)
                return StoredAccount(account: account, credentials: credentials.removeValue(forKey: account.id) ?? .empty)
            }
        }
    }

    public func account(id: String) throws -> StoredAccount? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM accounts WHERE id = ?", arguments: [id]) else {
                return nil
            }
            return StoredAccount(account: Self.account(from: row),
                                 credentials: try loadCredentials(db, accountId: id)[id] ?? .empty)
        }
    }

    public func insert(_ stored: StoredAccount) throws {
        try pool.write { db in
            try Self.writeAccount(stored.account, db, insert: true)
            try writeCredentials(stored.credentials, accountId: stored.account.id, db)
        }
    }

    public func saveSignIn(_ account: Account, credentials: Credentials, event: DeckEvent) throws {
        try pool.write { db in
            try Self.writeAccount(account, db, insert: false)
            try writeCredentials(credentials, accountId: account.id, db)
            try Self.insertEvent(event, db)
        }
    }

    public func update(_ account: Account) throws {
        try pool.write { db in try Self.writeAccount(account, db, insert: false) }
    }

    public func replaceCredentials(_ credentials: Credentials, accountId: String) throws {
        try pool.write { db in try writeCredentials(credentials, accountId: accountId, db) }
    }

    public func delete(accountId: String) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [accountId])
            guard db.changesCount > 0 else { throw StoreError.notFound(accountId: accountId) }
        }
    }

    public func quarantine(_ candidates: [PruneCandidate], at: Instant) throws {
        try pool.write { db in
            for c in candidates {
                try db.execute(sql: "UPDATE accounts SET quarantined_at = ?, quarantine_reason = ? WHERE id = ? AND quarantined_at IS NULL",
                               arguments: [at.secondsSinceEpoch, c.reason.sentence, c.account.id])
                guard db.changesCount == 1 else { throw StoreError.notFound(accountId: c.account.id) }
                try Self.insertEvent(DeckEvent(at: at, kind: .pruned, accountId: c.account.id,
                                               providerId: c.account.providerId, detail: c.reason.sentence), db)
            }
        }
    }

    public func restore(ids: [String]?) throws -> [Account] {
        let now = clock.now()
        return try pool.write { db in
            var rows = try Row.fetchAll(db, sql: "SELECT * FROM accounts WHERE quarantined_at IS NOT NULL")
            if let ids { rows = rows.filter { ids.contains($0["id"]) } }
            var restored: [Account] = []
            for row in rows {
                var account = Self.account(from: row)
                try db.execute(sql: "UPDATE accounts SET quarantined_at = NULL, quarantine_reason = NULL WHERE id = ?",
                               arguments: [account.id])
                try Self.insertEvent(DeckEvent(at: now, kind: .restored, accountId: account.id,
                                               providerId: account.providerId, detail: "restored from quarantine"), db)
                account.quarantinedAt = nil
                account.quarantineReason = nil
                restored.append(account)
            }
            return restored
        }
    }

    public func purgeQuarantine(before: Instant) throws -> [Account] {
        let now = clock.now()
        return try pool.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM accounts WHERE quarantined_at IS NOT NULL AND quarantined_at <= ?",
                                        arguments: [before.secondsSinceEpoch])
            let accounts = rows.map(Self.account(from:))
            for account in accounts {
                try db.execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [account.id])
                try Self.insertEvent(DeckEvent(at: now, kind: .purged, accountId: account.id, providerId: account.providerId,
                                               detail: "quarantine period over; deleted for good"), db)
            }
            return accounts
        }
    }

    /// Notes that an account's credential was just used, at most once a minute, so the
    /// hot `token` path rarely pays for a write.
    public func touch(accountId: String, at now: Instant) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE accounts SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
                           arguments: [now.secondsSinceEpoch, accountId, now.secondsSinceEpoch - 60])
        }
    }

    // MARK: - Row mapping

    static func account(from row: Row) -> Account {
        var error: AccountError?
        if let cls: String = row["error_class"], let errorClass = ErrorClass(rawValue: cls) {
            error = AccountError(errorClass: errorClass, code: row["error_code"] ?? "", remedy: row["error_remedy"] ?? "",
                                 at: Instant(secondsSinceEpoch: row["error_at"] ?? 0))
        }
        func instant(_ column: String) -> Instant? {
            (row[column] as Int64?).map(Instant.init(secondsSinceEpoch:))
        }
        return Account(id: row["id"], providerId: row["provider_id"], subject: row["subject"], username: row["username"],
                       displayName: row["display_name"], realm: row["realm"],
                       createdAt: Instant(secondsSinceEpoch: row["created_at"]),
                       lastSignInAt: instant("last_sign_in_at"), lastUsedAt: instant("last_used_at"),
                       lastError: error, failedAttempts: row["failed_attempts"],
                       quarantinedAt: instant("quarantined_at"), quarantineReason: row["quarantine_reason"])
    }

    static func writeAccount(_ a: Account, _ db: Database, insert: Bool) throws {
        let args: StatementArguments = [
            a.id, a.providerId, a.subject, a.username, a.displayName, a.realm, a.createdAt.secondsSinceEpoch,
            a.lastSignInAt?.secondsSinceEpoch, a.lastUsedAt?.secondsSinceEpoch,
            a.lastError?.errorClass.rawValue, a.lastError?.code, a.lastError?.remedy, a.lastError?.at.secondsSinceEpoch,
            a.failedAttempts, a.quarantinedAt?.secondsSinceEpoch, a.quarantineReason,
        ]
        let columns = "id, provider_id, subject, username, display_name, realm, created_at, last_sign_in_at, last_used_at, error_class, error_code, error_remedy, error_at, failed_attempts, quarantined_at, quarantine_reason"
        let placeholders = Array(repeating: "?", count: 16).joined(separator: ",")
        if insert {
            try db.execute(sql: "INSERT INTO accounts (\(columns)) VALUES (\(placeholders))", arguments: args)
        } else {
            // An upsert, never REPLACE: REPLACE deletes the row first, and the cascade would
            // take every credential of the account with it.
            let updates = columns.split(separator: ",").dropFirst()
                .map { $0.trimmingCharacters(in: .whitespaces) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            try db.execute(sql: "INSERT INTO accounts (\(columns)) VALUES (\(placeholders)) ON CONFLICT(id) DO UPDATE SET \(updates)",
                           arguments: args)
        }
    }

    // MARK: - Credentials

    enum Context {
        static func accessToken(_ id: String) -> String { "authdeck/v1/access_tokens/\(id)/value" }
        static func refreshToken(_ account: String, _ id: String) -> String { "authdeck/v1/refresh_tokens/\(account)/\(id)/value" }
        static func cookie(_ id: String) -> String { "authdeck/v1/cookies/\(id)/value" }
        static func extra(_ account: String, _ name: String) -> String { "authdeck/v1/extras/\(account)/\(name)" }
    }

    /// Loads the credentials of one account, or of all when `accountId` is nil, opening
    /// every sealed value (a value that fails authentication is an error, never skipped).
    func loadCredentials(_ db: Database, accountId: String?) throws -> [String: Credentials] {
        let filter = accountId == nil ? "" : " WHERE account_id = ?"
        let args: StatementArguments = accountId.map { [$0] } ?? []
        var out: [String: Credentials] = [:]
        func instant(_ row: Row, _ column: String) -> Instant? {
            (row[column] as Int64?).map(Instant.init(secondsSinceEpoch:))
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM access_tokens\(filter) ORDER BY obtained_at", arguments: args) {
            let id: String = row["id"]
            let scopes: String = row["scopes"]
            out[row["account_id"], default: .empty].accessTokens.append(AccessToken(
                id: id, value: try box.openString(row["sealed_value"], context: Context.accessToken(id)),
                scopes: scopes.split(separator: " ").map(String.init), tokenType: row["token_type"],
                obtainedAt: Instant(secondsSinceEpoch: row["obtained_at"]), expiresAt: instant(row, "expires_at")))
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM refresh_tokens\(filter)", arguments: args) {
            let account: String = row["account_id"]
            let id: String = row["id"]
            out[account, default: .empty].refreshToken = RefreshToken(
                id: id, value: try box.openString(row["sealed_value"], context: Context.refreshToken(account, id)),
                generation: row["generation"], obtainedAt: Instant(secondsSinceEpoch: row["obtained_at"]),
                expiresAt: instant(row, "expires_at"))
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM cookies\(filter) ORDER BY name", arguments: args) {
            let id: String = row["id"]
            out[row["account_id"], default: .empty].cookies.append(Cookie(
                id: id, name: row["name"], value: try box.openString(row["sealed_value"], context: Context.cookie(id)),
                domain: row["domain"], path: row["path"], expiresAt: instant(row, "expires_at"),
                secure: row["secure"], httpOnly: row["http_only"]))
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM id_token_claims\(filter)", arguments: args) {
            out[row["account_id"], default: .empty].idTokenClaims[row["name"]] = row["value"]
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM extras\(filter)", arguments: args) {
            let account: String = row["account_id"]
            let name: String = row["name"]
            out[account, default: .empty].extras[name] = try box.openString(row["sealed_value"], context: Context.extra(account, name))
        }
        return out
    }

    /// Replaces every credential row of an account inside the caller's transaction.
    func writeCredentials(_ c: Credentials, accountId: String, _ db: Database) throws {
        for table in ["access_tokens", "refresh_tokens", "cookies", "id_token_claims", "extras"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE account_id = ?", arguments: [accountId])
        }
        for t in c.accessTokens {
            try db.execute(sql: "INSERT INTO access_tokens (id, account_id, sealed_value, scopes, token_type, obtained_at, expires_at) VALUES (?,?,?,?,?,?,?)",
                           arguments: [t.id, accountId, try box.sealString(t.value, context: Context.accessToken(t.id)),
                                       t.scopes.joined(separator: " "), t.tokenType, t.obtainedAt.secondsSinceEpoch,
                                       t.expiresAt?.secondsSinceEpoch])
        }
        if let r = c.refreshToken {
            try db.execute(sql: "INSERT INTO refresh_tokens (account_id, id, sealed_value, generation, obtained_at, expires_at) VALUES (?,?,?,?,?,?)",
                           arguments: [accountId, r.id, try box.sealString(r.value, context: Context.refreshToken(accountId, r.id)),
                                       r.generation, r.obtainedAt.secondsSinceEpoch, r.expiresAt?.secondsSinceEpoch])
        }
        for k in c.cookies {
            try db.execute(sql: "INSERT INTO cookies (id, account_id, name, sealed_value, domain, path, expires_at, secure, http_only) VALUES (?,?,?,?,?,?,?,?,?)",
                           arguments: [k.id, accountId, k.name, try box.sealString(k.value, context: Context.cookie(k.id)),
                                       k.domain, k.path, k.expiresAt?.secondsSinceEpoch, k.secure, k.httpOnly])
        }
        for (name, value) in c.idTokenClaims {
            try db.execute(sql: "INSERT INTO id_token_claims (account_id, name, value) VALUES (?,?,?)",
                           arguments: [accountId, name, value])
        }
        for (name, value) in c.extras {
            try db.execute(sql: "INSERT INTO extras (account_id, name, sealed_value) VALUES (?,?,?)",
                           arguments: [accountId, name, try box.sealString(value, context: Context.extra(accountId, name))])
        }
    }
}
