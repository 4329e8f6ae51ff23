#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Crypto
import AuthDeckCore
import AuthDeckPlatform
import AuthDeckVault
import AuthDeckSQLite

/// Answers `authdeck token ACCOUNT` from the store alone when the answer is certain: a
/// file-sealed store with owner-only files, a config file unchanged since `authdeck-full`
/// last read it, exactly one matching account, and an access token valid beyond the
/// clock-skew margin.
///
/// Anything else — no such token, an ambiguous name, a passphrase or keyring store, a loose
/// file mode (which deserves the full binary's warning), a lock held too long, a schema this
/// code does not know — returns nil, and `authdeck-full` does the whole command from scratch,
/// with its renewal, its errors and its warnings. So this type never prints anything but a
/// token and never decides anything `authdeck-full` would decide differently: account
/// matching and token choice are AuthDeckCore's, the same code the full binary runs.
///
/// git's and kubectl's helpers (`git-credential get`, `kube-credential`) are answered the same
/// way from the same record (`FrontRecord`): the `[[credential]]` routes the full binary last
/// read, with the same route matching, default account and token choice.
struct CachedTokenReader {
    /// What is asked, as each command names it.
    enum Ask: Equatable {
        /// `authdeck token ACCOUNT`.
        case token(account: String)
        /// `authdeck kube-credential ACCOUNT [--scope S]…`.
        case kube(account: String, scopes: [String])
        /// `authdeck git-credential get` for a URL: its `[[credential]]` route decides.
        case git(url: String)
    }

    /// A token found, with its expiry and the username a helper presents.
    struct Found {
        var value: String
        var expiresAt: Instant?
        var username: String
    }

    /// What the store answered.
    enum Lookup {
        /// The token to print.
        case found(Found)
        /// The account is certain, but no token of it is usable now: authdeck-full renews it.
        case renewalDue
        /// Anything else authdeck-full must judge.
        case handOver
    }

    let environment: [String: String]

    /// The token for `ask`, or why not; a `.renewalDue` is passed on as `HandoverHint`.
    func lookUp(_ ask: Ask) -> Lookup {
        guard let lookup = try? answer(ask) else { return .handOver }
        if case .renewalDue = lookup { HandoverHint.markRenewalDue() }
        return lookup
    }

    private func answer(_ ask: Ask) throws -> Lookup {
        guard let store = FrontStore.open(environment: environment) else { return .handOver }
        return try answer(ask, db: store.db, store: store) ?? .handOver
    }

    private func answer(_ ask: Ask, db: SQLiteConnection, store: FrontStore) throws -> Lookup? {
        let now = Instant(secondsSinceEpoch: Int64(time(nil)))
        // One read transaction: the key, the account and its tokens from the same snapshot.
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        // The config as authdeck-full last read it: its margin, routes and pins, one record.
        guard let snapshot = try store.snapshot(records: [FrontRecord.metaKey, FrontRecord.sealKey]),
              let record = snapshot.believed(FrontRecord.self) else { return nil }
        let dataKey = snapshot.dataKey
        let skew = record.clockSkewSeconds

        // What is asked for: the account, the scopes and, for git, the route's username.
        let query: String, scopes: [String], username: String?
        switch ask {
        case .token(let account): (query, scopes, username) = (account, [], nil)
        case .kube(let account, let asked): (query, scopes, username) = (account, asked, nil)
        case .git(let url):
            // Where git would send the token must pass the one decision; else authdeck-full says why.
            guard SecretDestination.refusal(.accessToken, to: url) == nil,
                  let route = CredentialRoute.route(for: url, in: record.routes) else { return nil }
            (query, scopes, username) = (route.account, route.scopes, route.username)
        }

        var accounts: [Account] = []
        let accountRows = try db.statement(Self.accountsSQL)
        while try accountRows.next() {
            let row = accountRows
            accounts.append(Account(id: row.string(0), providerId: row.string(1), subject: row.string(2), username: row.string(3),
                                    displayName: row.string(4), createdAt: Instant(secondsSinceEpoch: row.int64(5)),
                                    lastUsedAt: row.optionalInt64(6).map(Instant.init(secondsSinceEpoch:))))
        }
        // A provider id naming several accounts stands for its default (`authdeck use`), as in
        // authdeck-full; a default whose seal does not open is authdeck-full's to judge.
        var doubt = false
        let outcome = AccountMatcher.resolve(query, in: accounts) { provider in
            let row = try? db.statement("SELECT sealed_value FROM provider_secrets WHERE provider_id = ? AND name = ?",
                                        [.text(provider), .text(StoreLayout.defaultAccountSecret)])
            guard let row, let present = try? row.next() else { doubt = true; return nil }
            guard present else { return nil }
            guard let sealed = row.bytes(0), let id = SealedValue.open(sealed, key: dataKey, context: SealingContext.providerSecret(
                provider, StoreLayout.defaultAccountSecret)) else { doubt = true; return nil }
            return String(decoding: id, as: UTF8.self)
        }
        guard !doubt, case .found(let account) = outcome else { return nil }
        // A name other than the id was matched among rows a keyless writer can hide (moved to the
        // quarantine or another provider): every row must hold its seal, else authdeck-full says why.
        if query != account.id, !(try Self.everyAccountSealHolds(db, dataKey: dataKey)) { return nil }
        // The row must match its seal (provider, subject, username, realm): one edited without
        // the key goes to authdeck-full, which refuses it and says so.
        let sealRow = try db.statement("SELECT \(AccountColumn.realm.name), seal FROM accounts WHERE \(AccountColumn.id.name) = ?", [.text(account.id)])
        guard try sealRow.next(), let seal = sealRow.bytes(1),
              SealedValue.open(seal, key: dataKey, context: SealingContext.account(
                  account.id, provider: account.providerId, subject: account.subject, username: account.username,
                  realm: sealRow.optionalString(0), quarantined: false)) != nil else { return nil }
        // Signed in to another tenant than its provider pins: authdeck-full refuses it and says
        // why. The pins are the record's, believed only for this config file and under its seal.
        guard !TenantPin.differs(expected: record.pins[account.providerId], actual: sealRow.optionalString(0)) else { return nil }

        // The store's own query and reader (`CredentialQuery`, `AccessTokenColumn`): the same
        // tokens in the same order, each with the context its seal must open under.
        typealias A = AccessTokenColumn
        var tokens: [AccessToken] = []
        var sealed: [String: (value: [UInt8], context: String)] = [:]
        let tokenRows = try CredentialQuery<A>(.account(account.id), sealed: true, owner: true, order: .obtainedAt).statement(on: db.handle)
        while try tokenRows.next() {
            let token = A.token(tokenRows, value: .unopened)
            sealed[token.id] = (tokenRows.bytes(A.sealedValue.rawValue) ?? [], A.sealingContext(tokenRows))
            tokens.append(token)
        }
        let credentials = Credentials(accessTokens: tokens)
        guard let token = credentials.usableAccessToken(for: scopes, at: now, skew: .seconds(skew)) else { return .renewalDue }
        guard let row = sealed[token.id], let value = SealedValue.open(row.value, key: dataKey, context: row.context) else { return nil }
        if account.lastUsedAt.map({ now - $0 >= .seconds(StoreLayout.lastUsedResolution) }) ?? true {
            // As `DeckStore.touch`; a failure is not the caller's problem.
            try? db.execute(StoreLayout.touchSQL, [.integer(now.secondsSinceEpoch), .text(account.id)])
        }
        return .found(Found(value: String(decoding: value, as: UTF8.self), expiresAt: token.expiresAt, username: username ?? account.username))
    }

    /// Whether every account row, quarantined ones included, matches its seal.
    static func everyAccountSealHolds(_ db: SQLiteConnection, dataKey: SymmetricKey) throws -> Bool {
        typealias C = AccountColumn
        let rows = try db.statement("SELECT \(C.names([.id, .providerId, .subject, .username, .realm, .quarantinedAt])), seal FROM accounts")
        while try rows.next() {
            guard let seal = rows.bytes(6), SealedValue.open(seal, key: dataKey, context: SealingContext.account(
                rows.string(0), provider: rows.string(1), subject: rows.string(2), username: rows.string(3),
                realm: rows.optionalString(4), quarantined: rows.optionalInt64(5) != nil)) != nil else { return false }
        }
        return true
    }

    /// The accounts an ACCOUNT may name, with the columns the matcher needs, read in this order
    /// (the names are the store's own: `AccountColumn`).
    static let accountsSQL: String = {
        typealias C = AccountColumn
        return "SELECT \(C.names([.id, .providerId, .subject, .username, .displayName, .createdAt, .lastUsedAt])) FROM accounts "
            + "WHERE \(C.quarantinedAt.name) IS NULL ORDER BY \(C.names([.providerId, .username, .id]))"
    }()
}
