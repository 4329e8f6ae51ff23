#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore
import AuthDeckVault
import AuthDeckSQLite

/// Answers `authdeck status --short` from the store alone: every unquarantined account read
/// as `authdeck-full` reads its summaries (no secret opened), the config as the sealed
/// `StatusFastPath` record gives it, and the line from Core's `DeckAssessment` and
/// `StatusLine` — the same rule `authdeck-full status --short` runs.
///
/// Anything the front cannot be sure of (the store's conditions of `FrontStore`, no record
/// for this config file) returns nil and `authdeck-full` answers.
struct StatusReader {
    let environment: [String: String]

    /// Whether `arguments` ask for exactly `status --short` (or `--format prompt`), nothing else.
    static func isShortStatus(_ arguments: [String]) -> Bool {
        let rest = Array(arguments.dropFirst())
        return rest == ["status", "--short"] || rest == ["status", "--format", "prompt"] || rest == ["status", "--format=prompt"]
    }

    /// The line to print ("" when all is well), or nil to hand over.
    func shortLine() -> String? {
        guard let store = FrontStore.open(environment: environment) else { return nil }
        return try? shortLine(store)
    }

    private func shortLine(_ store: FrontStore) throws -> String? {
        let db = store.db
        let now = Instant(secondsSinceEpoch: Int64(time(nil)))
        // One read transaction: the record, the accounts and their credentials from one snapshot.
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        guard let snapshot = try store.snapshot(records: [StatusFastPath.metaKey, StatusFastPath.sealKey]),
              let record = snapshot.believed(StatusFastPath.self) else { return nil }
        var accounts: [StoredAccount] = []
        var position: [String: Int] = [:]
        let rows = try db.statement("SELECT \(AccountColumn.list) FROM accounts WHERE \(AccountColumn.quarantinedAt.name) IS NULL")
        while try rows.next() {
            position[rows.string(AccountColumn.id.rawValue)] = accounts.count
            accounts.append(StoredAccount(account: Self.account(rows), credentials: .empty))
        }
        let tokens = try db.statement("SELECT id, account_id, scopes, token_type, obtained_at, expires_at, requested_scopes FROM access_tokens ORDER BY obtained_at")
        while try tokens.next() {
            guard let at = position[tokens.string(1)] else { continue }
            accounts[at].credentials.accessTokens.append(AccessToken(
                id: tokens.string(0), value: .unopened, scopes: tokens.string(2).split(separator: " ").map(String.init),
                requestedScopes: tokens.optionalString(6)?.split(separator: " ").map(String.init) ?? [], tokenType: tokens.string(3),
                obtainedAt: Instant(secondsSinceEpoch: tokens.int64(4)), expiresAt: tokens.optionalInt64(5).map(Instant.init(secondsSinceEpoch:))))
        }
        let refresh = try db.statement("SELECT account_id, id, generation, obtained_at, expires_at FROM refresh_tokens")
        while try refresh.next() {
            guard let at = position[refresh.string(0)] else { continue }
            accounts[at].credentials.refreshToken = RefreshToken(
                id: refresh.string(1), value: .unopened, generation: Int(refresh.int64(2)),
                obtainedAt: Instant(secondsSinceEpoch: refresh.int64(3)), expiresAt: refresh.optionalInt64(4).map(Instant.init(secondsSinceEpoch:)))
        }
        let cookies = try db.statement("SELECT id, account_id, name, domain, path, expires_at, secure, http_only FROM cookies ORDER BY name")
        while try cookies.next() {
            guard let at = position[cookies.string(1)] else { continue }
            accounts[at].credentials.cookies.append(Cookie(
                id: cookies.string(0), name: cookies.string(2), value: .unopened, domain: cookies.string(3), path: cookies.string(4),
                expiresAt: cookies.optionalInt64(5).map(Instant.init(secondsSinceEpoch:)), secure: cookies.int64(6) != 0, httpOnly: cookies.int64(7) != 0))
        }
        // Which extras exist decides what renews without a refresh token; their values are not read.
        let extras = try db.statement("SELECT account_id, name FROM extras")
        while try extras.next() {
            guard let at = position[extras.string(0)] else { continue }
            accounts[at].credentials.extras[extras.string(1)] = .unopened
        }
        let assessment = DeckAssessment(accounts: accounts, configuredProviders: record.providers, statePolicy: record.statePolicy,
                                        pruneSettings: record.pruneSettings, now: now)
        return StatusLine.short(assessment)
    }

    /// The account on a row of `SELECT AccountColumn.list`, as the store reads it.
    static func account(_ row: RawStatement) -> Account {
        typealias C = AccountColumn
        func instant(_ c: C) -> Instant? { row.optionalInt64(c.rawValue).map(Instant.init(secondsSinceEpoch:)) }
        var error: AccountError?
        if let cls = row.optionalString(C.errorClass.rawValue), let errorClass = ErrorClass(rawValue: cls) {
            error = AccountError(errorClass: errorClass, code: row.string(C.errorCode.rawValue), remedy: row.string(C.errorRemedy.rawValue),
                                 at: Instant(secondsSinceEpoch: row.int64(C.errorAt.rawValue)))
        }
        return Account(id: row.string(C.id.rawValue), providerId: row.string(C.providerId.rawValue), subject: row.string(C.subject.rawValue),
                       username: row.string(C.username.rawValue), displayName: row.string(C.displayName.rawValue),
                       realm: row.optionalString(C.realm.rawValue), createdAt: Instant(secondsSinceEpoch: row.int64(C.createdAt.rawValue)),
                       lastSignInAt: instant(.lastSignInAt), lastUsedAt: instant(.lastUsedAt), lastError: error,
                       failedAttempts: Int(row.int64(C.failedAttempts.rawValue)),
                       quarantinedAt: instant(.quarantinedAt), quarantineReason: row.optionalString(C.quarantineReason.rawValue))
    }
}
