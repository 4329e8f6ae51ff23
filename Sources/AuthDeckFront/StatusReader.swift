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
            accounts.append(StoredAccount(account: AccountColumn.account(rows), credentials: .empty))
        }
        // The store's own queries and readers, no value opened (`CredentialQuery`, `…Column`).
        func each<C: CredentialColumn>(_ query: CredentialQuery<C>, _ body: (RawStatement, Int) -> Void) throws {
            let rows = try query.statement(on: db.handle)
            while try rows.next() {
                guard let at = position[rows.string(C.accountId.rawValue)] else { continue }
                body(rows, at)
            }
        }
        try each(CredentialQuery<AccessTokenColumn>(.all, sealed: false, owner: false, order: .obtainedAt)) { row, at in
            accounts[at].credentials.accessTokens.append(AccessTokenColumn.token(row, value: .unopened))
        }
        try each(CredentialQuery<RefreshTokenColumn>(.all, sealed: false, owner: false)) { row, at in
            accounts[at].credentials.refreshToken = RefreshTokenColumn.token(row, value: .unopened)
        }
        try each(CredentialQuery<CookieColumn>(.all, sealed: false, owner: false, order: .name)) { row, at in
            accounts[at].credentials.cookies.append(CookieColumn.cookie(row, value: .unopened))
        }
        // Which extras exist decides what renews without a refresh token; their values are not read.
        try each(CredentialQuery<ExtraColumn>(.all, sealed: false, owner: false)) { row, at in
            accounts[at].credentials.extras[row.string(ExtraColumn.name.rawValue)] = .unopened
        }
        let assessment = DeckAssessment(accounts: accounts, configuredProviders: record.providers, statePolicy: record.statePolicy,
                                        pruneSettings: record.pruneSettings, now: now)
        return StatusLine.short(assessment)
    }
}
