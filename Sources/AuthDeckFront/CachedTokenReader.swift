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
/// way from the helpers' record (`HelperFastPath`): the `[[credential]]` routes the full binary
/// last read, with the same route matching, default account and token choice.
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
        guard let snapshot = try store.snapshot(records: [TokenFastPath.metaKey, TokenFastPath.sealKey, HelperFastPath.metaKey,
                                                          HelperFastPath.sealKey, TenantPins.metaKey, TenantPins.sealKey])
        else { return nil }
        let dataKey = snapshot.dataKey
        func believed<R: SealedMetaRecord>(_ type: R.Type) -> R? { snapshot.believed(type) }

        // The config's margin and, for git, its route.
        let query: String, scopes: [String], username: String?, skew: Int64
        switch ask {
        case .token(let account):
            guard let record = believed(TokenFastPath.self) else { return nil }
            (query, scopes, username, skew) = (account, [], nil, record.clockSkewSeconds)
        case .kube, .git:
            guard let record = believed(HelperFastPath.self) else { return nil }
            skew = record.clockSkewSeconds
            switch ask {
            case .kube(let account, let asked): (query, scopes, username) = (account, asked, nil)
            case .git(let url):
                // Where git would send the token must pass the one decision; else authdeck-full says why.
                guard SecretDestination.refusal(.accessToken, to: url) == nil,
                      let route = CredentialRoute.route(for: url, in: record.routes) else { return nil }
                (query, scopes, username) = (route.account, route.scopes, route.username)
            case .token: return nil
            }
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
        // why. The pins are believed only for this config file and under their seal; without
        // them the front cannot tell, so it hands over.
        guard let pins = believed(TenantPins.self),
              !TenantPin.differs(expected: pins.pins[account.providerId], actual: sealRow.optionalString(0)) else { return nil }

        var tokens: [AccessToken] = []
        var sealed: [String: (value: [UInt8], scopes: String, requested: String?, expires: Int64?)] = [:]
        let tokenRows = try db.statement("SELECT id, sealed_value, scopes, token_type, obtained_at, expires_at, requested_scopes FROM access_tokens WHERE account_id = ? ORDER BY obtained_at", [.text(account.id)])
        while try tokenRows.next() {
            let row = tokenRows
            let id = row.string(0), scopes = row.string(2), requested = row.optionalString(6)
            sealed[id] = (row.bytes(1) ?? [], scopes, requested, row.optionalInt64(5))
            tokens.append(AccessToken(id: id, value: .unopened, scopes: scopes.split(separator: " ").map(String.init),
                                      requestedScopes: requested?.split(separator: " ").map(String.init) ?? [],
                                      tokenType: row.string(3), obtainedAt: Instant(secondsSinceEpoch: row.int64(4)),
                                      expiresAt: row.optionalInt64(5).map(Instant.init(secondsSinceEpoch:))))
        }
        let credentials = Credentials(accessTokens: tokens)
        guard let token = credentials.usableAccessToken(for: scopes, at: now, skew: .seconds(skew)) else { return .renewalDue }
        guard let row = sealed[token.id],
              let value = SealedValue.open(row.value, key: dataKey, context: SealingContext.accessToken(
                  token.id, account: account.id, scopes: row.scopes, requested: row.requested, expiresAt: row.expires,
                  provider: account.providerId, subject: account.subject)) else { return nil }
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
