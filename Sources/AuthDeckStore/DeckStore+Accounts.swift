import Foundation
import GRDB
import AuthDeckCore
import AuthDeckVault
import AuthDeckSQLite

/// The `AccountStore` port over SQLite: account rows, sealed credentials, quarantine.
extension DeckStore: AccountStore {
    /// Every account with every secret opened: for tests and tools, not for the port's users.
    public func accounts(includeQuarantined: Bool = false) throws -> [StoredAccount] {
        try accounts(includeQuarantined: includeQuarantined, openSecrets: true)
    }

    /// Every account with its credentials' kinds, scopes and expiries but no secret values
    /// (each `Secret.unopened`): what listings and the deck need, without decrypting every
    /// token of a large store. Anything that sends or seals a credential reads the account
    /// again with `account(id:)`.
    public func accountSummaries(includeQuarantined: Bool = false) throws -> [StoredAccount] {
        try accounts(includeQuarantined: includeQuarantined, openSecrets: false)
    }

    /// The unquarantined accounts with the provider and subject of account `id` (itself
    /// included; none when it is gone), as summaries: one account's row in the deck, with the
    /// duplicates its stale verdict depends on.
    public func accountSummaries(sharingIdentityWith id: String) throws -> [StoredAccount] {
        try read { db in
            let accounts = try Self.accounts(db, where: " WHERE quarantined_at IS NULL AND (provider_id, subject) = (SELECT provider_id, subject FROM accounts WHERE id = ?) ORDER BY \(Self.listingOrder)",
                                             arguments: [.text(id)])
            return try accounts.map { account in
                var credentials = Credentials.empty
                try loadCredentials(db, scope: .account(account.id), openSecrets: false) { _, _ in 0 } apply: { _, change in try change(&credentials) }
                return StoredAccount(account: account, credentials: credentials)
            }
        }
    }

    /// Only the account rows, no credentials: for matching an ACCOUNT argument.
    public func accountRows(includeQuarantined: Bool = false) throws -> [Account] {
        try read { db in
            let filter = includeQuarantined ? "" : " WHERE quarantined_at IS NULL"
            return try Self.accounts(db, where: filter + " ORDER BY \(Self.listingOrder)")
        }
    }

    /// The ids of account rows, quarantined ones included, that no longer match their seal
    /// (changed without the key).
    ///
    /// Why a whole pass: a name that is not an account's id (a provider id, a username) is
    /// resolved among the rows a keyless writer can hide — moved to the quarantine or to another
    /// provider by one unsealed column — so that another of the person's accounts becomes the
    /// only match. Such a name is answered only when every row holds (`DeckContext.resolveAccount`
    /// and the front alike).
    public func tamperedAccountIds() throws -> [String] {
        try read { db in
            var tampered: [String] = []
            try Self.eachAccount(db, where: "") { account in
                if (try? checkSeal(of: account, db)) == nil { tampered.append(account.id) }
            }
            return tampered
        }
    }

    /// Every account in listing order, with its credentials.
    ///
    /// Credential rows are read table by table and land on their account's position through
    /// `AccountLocator`. Why: no dictionary of credentials per account to build and empty again.
    func accounts(includeQuarantined: Bool, openSecrets: Bool) throws -> [StoredAccount] {
        try read { db in try accounts(db, includeQuarantined: includeQuarantined, openSecrets: openSecrets) }
    }

    /// `accounts(includeQuarantined:openSecrets:)` inside the caller's transaction on `db`.
    func accounts(_ db: Database, includeQuarantined: Bool, openSecrets: Bool) throws -> [StoredAccount] {
        let filter = includeQuarantined ? "" : " WHERE quarantined_at IS NULL"
        // Every row, quarantined or not: an upper bound SQLite counts from the primary key's
        // index, where counting only the unquarantined ones read the whole table.
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM accounts") ?? 0
        var out: [StoredAccount] = []
        out.reserveCapacity(count)
        try Self.eachAccount(db, where: filter) { out.append(StoredAccount(account: $0, credentials: .empty)) }
        if openSecrets { try out.forEach { try checkSeal(of: $0.account, db) } }
        // Sorted here rather than by SQLite, whose sorter cost more than reading the rows;
        // positions are sorted, not the (large) accounts, which then move once.
        let order = Self.listingOrder(of: out)
        var positions = [Int](repeating: 0, count: order.count)
        for (position, read) in order.enumerated() { positions[read] = position }
        var locator = AccountLocator(ids: out.map(\.account.id), positions: positions)
        Self.permute(&out, to: order)
        // Rows of accounts left out (quarantined) find no position and are skipped.
        try loadCredentials(db, scope: .all, openSecrets: openSecrets) { row, column in
            locator.position(of: row, column: column)
        } apply: { index, change in
            try change(&out[index].credentials)
        }
        return out
    }

    public func account(id: String) throws -> StoredAccount? {
        try read { db in
            guard let account = try Self.accounts(db, where: " WHERE id = ?", arguments: [.text(id)]).first else { return nil }
            try checkSeal(of: account, db)
            var credentials = Credentials.empty
            try loadCredentials(db, scope: .account(id), openSecrets: true) { _, _ in 0 } apply: { _, change in try change(&credentials) }
            return StoredAccount(account: account, credentials: credentials)
        }
    }

    public func accounts(providerId: String, subject: String?) throws -> [StoredAccount] {
        try read { db in
            let accounts = try Self.accounts(db, where: " WHERE provider_id = ?" + (subject == nil ? "" : " AND subject = ?"),
                                             arguments: [.text(providerId)] + (subject.map { [.text($0)] } ?? []))
            return try accounts.map { account in
                try checkSeal(of: account, db)
                var credentials = Credentials.empty
                try loadCredentials(db, scope: .account(account.id), openSecrets: true) { _, _ in 0 } apply: { _, change in try change(&credentials) }
                return StoredAccount(account: account, credentials: credentials)
            }
        }
    }

    public func insert(_ stored: StoredAccount) throws {
        try write { db in
            try writeAccount(stored.account, db, insert: true)
            try writeCredentials(stored.credentials, accountId: stored.account.id, db)
        }
    }

    public func saveSignIn(_ account: Account, credentials: Credentials, event: DeckEvent) throws {
        try write { db in
            try writeAccount(account, db, insert: false)
            try writeCredentials(credentials, accountId: account.id, db)
            try Self.insertEvent(event, db)
        }
    }

    public func update(_ account: Account) throws {
        try write { db in try writeAccount(account, db, insert: false) }
    }

    public func replaceCredentials(_ credentials: Credentials, accountId: String) throws {
        try write { db in try writeCredentials(credentials, accountId: accountId, db) }
    }

    public func delete(accountId: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [accountId])
            guard db.changesCount > 0 else { throw StoreError.notFound(accountId: accountId) }
        }
    }

    public func restore(ids: [String]?) throws -> [Account] {
        let now = clock.now()
        return try write { db in
            var accounts = try Self.accounts(db, where: " WHERE quarantined_at IS NOT NULL")
            if let ids { accounts = accounts.filter { ids.contains($0.id) } }
            var restored: [Account] = []
            for var account in accounts {
                try db.execute(sql: "UPDATE accounts SET quarantined_at = NULL, quarantine_reason = NULL WHERE id = ?",
                               arguments: [account.id])
                try resealAccount(account.id, quarantined: false, db)
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
        return try write { db in
            let accounts = try Self.accounts(db, where: " WHERE quarantined_at IS NOT NULL AND quarantined_at <= ?",
                                             arguments: [.integer(before.secondsSinceEpoch)])
            for account in accounts {
                try db.execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [account.id])
                try Self.insertEvent(DeckEvent(at: now, kind: .purged, accountId: account.id, providerId: account.providerId,
                                               detail: "quarantine period over; deleted for good"), db)
            }
            return accounts
        }
    }

    /// `touch`, skipped without a write transaction (and its lock) when `account` as read
    /// already says "just now"; a failure is not the caller's problem (the credential was used).
    public func touchIfDue(_ account: Account, at now: Instant) {
        guard account.lastUsedAt.map({ now - $0 >= .seconds(StoreLayout.lastUsedResolution) }) ?? true else { return }
        try? touch(accountId: account.id, at: now)
    }

    /// Notes that an account's credential was just used, at most once a minute, so the
    /// hot `token` path rarely pays for a write.
    public func touch(accountId: String, at now: Instant) throws {
        // A newer authdeck's store is read, never written; "last used" can wait for it.
        guard !readOnly else { return }
        try write { db in
            try db.execute(sql: StoreLayout.touchSQL, arguments: [now.secondsSinceEpoch, accountId])
        }
    }

    // MARK: - Row mapping

    /// The order of every listing (`accounts`, the deck, account matching).
    static let listingOrder = "provider_id, username, id"

    /// `listingOrder` in Swift: by provider, username and id, comparing UTF-8 bytes as
    /// SQLite's BINARY collation does (String's `<` compares by Unicode canonical equivalence,
    /// which could order some spellings differently from the SQL it replaces).
    static func listedBefore(_ a: Account, _ b: Account) -> Bool {
        var order = compareBytes(a.providerId, b.providerId)
        if order == 0 { order = compareBytes(a.username, b.username) }
        if order == 0 { order = compareBytes(a.id, b.id) }
        return order < 0
    }

    /// The positions of `accounts` in listing order (`listedBefore`), sorted on integer keys:
    /// the provider's place among the providers, then the username's first 16 bytes
    /// (`Utf8Prefix`); the accounts themselves are compared only when both are equal. Why:
    /// comparing integers is much cheaper than comparing Strings — measured with bench/ab
    /// (B/A per round, p25-p75): a plain sort of the positions by `listedBefore`, with the
    /// accounts then copied into place, made `accounts --json` over 10,000 accounts 1.08x
    /// (1.00-1.16); restoring this sort alone brought it to 1.03x (1.00-1.10).
    static func listingOrder(of accounts: [StoredAccount]) -> [Int] {
        struct Key {
            var provider: Int
            var username: Utf8Prefix
            var index: Int
        }
        return accounts.withUnsafeBufferPointer { rows in
            // The providers, each hashed once per run of its accounts, not once per account.
            var distinct = Set<String>()
            for index in rows.indices where index == 0 || rows[index].account.providerId != rows[index - 1].account.providerId {
                distinct.insert(rows[index].account.providerId)
            }
            let rank = Dictionary(uniqueKeysWithValues: distinct.sorted { compareBytes($0, $1) < 0 }.enumerated().map { ($1, $0) })
            var keys: [Key] = []
            keys.reserveCapacity(rows.count)
            var last: (id: String, rank: Int)?
            for index in rows.indices {
                let provider = rows[index].account.providerId
                if last?.id != provider { last = (provider, rank[provider]!) }
                keys.append(Key(provider: last!.rank, username: Utf8Prefix(rows[index].account.username), index: index))
            }
            keys.sort { a, b in
                if a.provider != b.provider { return a.provider < b.provider }
                if a.username != b.username { return a.username < b.username }
                return listedBefore(rows[a.index].account, rows[b.index].account)
            }
            return keys.map(\.index)
        }
    }

    /// memcmp of the UTF-8 bytes, the shorter first on a common prefix (SQLite's BINARY).
    static func compareBytes(_ x: String, _ y: String) -> Int {
        let fast = x.utf8.withContiguousStorageIfAvailable { a in
            y.utf8.withContiguousStorageIfAvailable { b in
                let common = min(a.count, b.count)
                let c = common == 0 ? 0 : Int(memcmp(a.baseAddress!, b.baseAddress!, common))
                return c != 0 ? c : a.count - b.count
            }
        }
        if let order = fast ?? nil { return order }
        return x.utf8.elementsEqual(y.utf8) ? 0 : (x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1)
    }

    /// Rearranges `items` so that `items[i]` becomes the old `items[order[i]]`, by moving
    /// along each cycle of the permutation. Why: no second array of large values, and values move
    /// bit for bit (`swapAt` copies them, retaining and releasing every String inside). Measured
    /// with bench/ab: copying them instead (`order.map { out[$0] }`) took `accounts --json` over
    /// 10,000 accounts to 1.09x (1.01-1.16) and the deck's first frame to 1.21x (1.06-1.45).
    static func permute<T>(_ items: inout [T], to order: [Int]) {
        precondition(items.count == order.count)
        var placed = [Bool](repeating: false, count: order.count)
        items.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for start in order.indices where !placed[start] {
                // Hold the cycle's first value, pull each later one into the hole before it.
                let held = (base + start).move()
                var hole = start
                while order[hole] != start {
                    let next = order[hole]
                    (base + hole).moveInitialize(from: base + next, count: 1)
                    placed[hole] = true
                    hole = next
                }
                (base + hole).initialize(to: held)
                placed[hole] = true
            }
        }
    }

    /// Refuses an account whose row no longer matches its seal: its provider, subject, username
    /// or realm was changed without the key (or the seal removed), so its secrets must not be
    /// sent anywhere on its say-so.
    func checkSeal(of account: Account, _ db: Database) throws {
        // Cached: the full read checks every account's seal.
        let read = try db.cachedStatement(sql: "SELECT seal FROM accounts WHERE id = ?")
        guard let seal = try Data.fetchOne(read, arguments: [account.id]),
              (try? box.open(Array(seal), context: Self.sealContext(of: account))) != nil
        else { throw StoreError.accountTampered(accountId: account.id) }
    }

    /// What an account row's seal binds (`SealingContext.account`).
    static func sealContext(of a: Account) -> String {
        SealingContext.account(a.id, provider: a.providerId, subject: a.subject, username: a.username, realm: a.realm,
                               quarantined: a.quarantinedAt != nil)
    }

    /// Moves account `id` in or out of the quarantine's seal: the row's seal is renewed for
    /// `quarantined` only when it holds for the row as it was, so a prune or an undo never
    /// seals an edit made without the key (such a row stays refused).
    func resealAccount(_ id: String, quarantined: Bool, _ db: Database) throws {
        // Cached statements: a prune moves thousands of accounts in one transaction.
        let read = try db.cachedStatement(sql: "SELECT provider_id, subject, username, realm, seal FROM accounts WHERE id = ?")
        guard let row = try Row.fetchOne(read, arguments: [id]) else { return }
        try resealAccount(id, row: row, quarantined: quarantined, db)
    }

    /// `resealAccount` with the row's provider, subject, username, realm and seal already read
    /// (a quarantine's UPDATE … RETURNING gives them: one statement per account, not two).
    func resealAccount(_ id: String, row: Row, quarantined: Bool, _ db: Database) throws {
        guard let seal = row[4] as Data? else { return }
        func context(_ q: Bool) -> String {
            SealingContext.account(id, provider: row[0], subject: row[1], username: row[2], realm: row[3], quarantined: q)
        }
        guard (try? box.open(Array(seal), context: context(!quarantined))) != nil else { return }
        let write = try db.cachedStatement(sql: "UPDATE accounts SET seal = ? WHERE id = ?")
        try write.execute(arguments: [Data(try box.seal([], context: context(quarantined))), id])
    }

    /// The columns `AccountColumn.account` reads, in the order it reads them.
    static let accountColumns = AccountColumn.list

    /// The accounts of `SELECT accountColumns FROM accounts` + `clause` (a WHERE and/or
    /// ORDER BY whose `?`s take `arguments`), in the order SQLite returns them.
    static func accounts(_ db: Database, where clause: String, arguments: [RawStatement.Argument] = []) throws -> [Account] {
        var out: [Account] = []
        try eachAccount(db, where: clause, arguments: arguments) { out.append($0) }
        return out
    }

    /// Hands each account of `SELECT accountColumns FROM accounts` + `clause` to `body`, in
    /// the order SQLite returns them; an account's realm is the previous one's String when
    /// the text is the same. (`consuming`: a borrowed account was copied by every `body` that
    /// keeps it, each String retained.)
    static func eachAccount(_ db: Database, where clause: String, arguments: [RawStatement.Argument] = [],
                            _ body: (consuming Account) -> Void) throws {
        let rows = try RawStatement(db, sql: "SELECT \(accountColumns) FROM accounts" + clause, arguments: arguments)
        var realm: String?
        while try rows.next() {
            let account = AccountColumn.account(rows, realmBefore: realm)
            realm = account.realm
            body(account)
        }
    }

    /// Writes the account row with its seal (`SealingContext.account`).
    func writeAccount(_ a: Account, _ db: Database, insert: Bool) throws {
        let seal = try box.seal([], context: Self.sealContext(of: a))
        let values: [(any DatabaseValueConvertible)?] = AccountColumn.allCases.map { $0.value(of: a) } + [Data(seal)]
        let args = StatementArguments(values)
        let columns = AccountColumn.list + ", seal"
        let placeholders = Array(repeating: "?", count: AccountColumn.allCases.count + 1).joined(separator: ",")
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

    /// Reads credential rows and hands each to `apply` with its account's position (found by
    /// `locate` from the row and the column of its account id; nil skips the row) and the
    /// change it makes to that account's credentials, opening every sealed value (a value that fails
    /// authentication is an error, never skipped) — or none, with `openSecrets: false` (each
    /// value `Secret.unopened`). An account's access tokens come oldest first, its cookies by name.
    func loadCredentials(_ db: Database, scope: CredentialScope, openSecrets: Bool,
                         locate: (RawStatement, Int32) -> Int?,
                         apply: (Int, (inout Credentials) throws -> Void) throws -> Void) throws {
        // A value that does not open under its binding is refused as its account's: a row
        // edited without the key (a cookie moved to another domain) is never used.
        func open(_ sealed: RawStatement, _ index: Int32, account: String, _ context: @autoclosure () -> String) throws -> Secret {
            guard openSecrets else { return .unopened }
            guard let secret = try? box.openString(sealed.bytes(index) ?? [], context: context()) else {
                throw StoreError.accountTampered(accountId: account)
            }
            return secret
        }
        // Each row lands on the account `locate` finds from the account id in `account`.
        func each<C: CredentialColumn>(_ query: CredentialQuery<C>, _ body: (RawStatement, Int) throws -> Void) throws {
            let rows = try RawStatement(db, sql: query.sql, arguments: query.arguments)
            while try rows.next() {
                guard let index = locate(rows, C.accountId.rawValue) else { continue }
                try body(rows, index)
            }
        }
        // Columns are read by their descriptions (`AccessTokenColumn` …), the owner's provider
        // and subject (which refresh tokens, access tokens and extras are bound to) appended
        // only when values are opened.
        typealias A = AccessTokenColumn
        typealias R = RefreshTokenColumn
        typealias K = CookieColumn
        typealias I = ClaimColumn
        typealias E = ExtraColumn
        try each(CredentialQuery<A>(scope, sealed: openSecrets, owner: openSecrets, order: .obtainedAt)) { row, index in
            let token = A.token(row, value: try open(row, A.sealedValue.rawValue, account: row.string(A.accountId.rawValue), A.sealingContext(row)))
            try apply(index) { $0.accessTokens.append(token) }
        }
        try each(CredentialQuery<R>(scope, sealed: openSecrets, owner: openSecrets)) { row, index in
            let (secret, home) = RefreshTokenPlaintext.opened(try open(row, R.sealedValue.rawValue, account: row.string(R.accountId.rawValue),
                                                                       R.sealingContext(row)))
            let token = R.token(row, value: secret, home: home)
            try apply(index) { $0.refreshToken = token }
        }
        try each(CredentialQuery<K>(scope, sealed: openSecrets, owner: false, order: .name)) { row, index in
            let cookie = K.cookie(row, value: try open(row, K.sealedValue.rawValue, account: row.string(K.accountId.rawValue), K.sealingContext(row)))
            try apply(index) { $0.cookies.append(cookie) }
        }
        try each(CredentialQuery<I>(scope, sealed: false, owner: false)) { row, index in
            let name = row.string(I.name.rawValue)
            let claim = row.string(I.value.rawValue)
            try apply(index) { $0.idTokenClaims[name] = claim }
        }
        try each(CredentialQuery<E>(scope, sealed: openSecrets, owner: openSecrets)) { row, index in
            let name = row.string(E.name.rawValue)
            let extra = try open(row, E.sealedValue.rawValue, account: row.string(E.accountId.rawValue), E.sealingContext(row))
            try apply(index) { $0.extras[name] = extra }
        }
    }

    /// Replaces every credential row of an account inside the caller's transaction, each value
    /// sealed with the bindings of `SealingContext` (the account's provider and subject read
    /// from its row, which is written first).
    func writeCredentials(_ c: Credentials, accountId: String, _ db: Database) throws {
        let owner = try RawStatement(db, sql: "SELECT provider_id, subject FROM accounts WHERE id = ?", arguments: [.text(accountId)])
        guard try owner.next() else { throw StoreError.notFound(accountId: accountId) }
        let provider = owner.string(0), subject = owner.string(1)
        for table in [AccessTokenColumn.table, RefreshTokenColumn.table, CookieColumn.table, ClaimColumn.table, ExtraColumn.table] {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE account_id = ?").execute(arguments: [accountId])
        }
        for t in c.accessTokens {
            let scopes = t.scopes.joined(separator: " ")
            let requested = t.requestedScopes.isEmpty ? nil : t.requestedScopes.joined(separator: " ")
            let context = SealingContext.accessToken(t.id, account: accountId, scopes: scopes, requested: requested,
                                                     expiresAt: t.expiresAt?.secondsSinceEpoch, provider: provider, subject: subject)
            let sealed = try box.sealString(t.value, context: context)
            try Self.insertRow(db) { (column: AccessTokenColumn) -> (any DatabaseValueConvertible)? in
                switch column {
                case .id: t.id
                case .accountId: accountId
                case .sealedValue: sealed
                case .scopes: scopes
                case .tokenType: t.tokenType
                case .obtainedAt: t.obtainedAt.secondsSinceEpoch
                case .expiresAt: t.expiresAt?.secondsSinceEpoch
                case .requestedScopes: requested
                }
            }
        }
        if let r = c.refreshToken {
            let sealed = try box.sealString(RefreshTokenPlaintext.sealed(r.value, home: r.home),
                                            context: SealingContext.refreshToken(accountId, r.id, provider: provider, subject: subject))
            try Self.insertRow(db) { (column: RefreshTokenColumn) -> (any DatabaseValueConvertible)? in
                switch column {
                case .accountId: accountId
                case .id: r.id
                case .sealedValue: sealed
                case .generation: r.generation
                case .obtainedAt: r.obtainedAt.secondsSinceEpoch
                case .expiresAt: r.expiresAt?.secondsSinceEpoch
                }
            }
        }
        for k in c.cookies {
            let sealed = try box.sealString(k.value, context: SealingContext.cookie(k.id, account: accountId, name: k.name, domain: k.domain, path: k.path,
                                                                                    expiresAt: k.expiresAt?.secondsSinceEpoch, secure: k.secure, httpOnly: k.httpOnly))
            try Self.insertRow(db) { (column: CookieColumn) -> (any DatabaseValueConvertible)? in
                switch column {
                case .id: k.id
                case .accountId: accountId
                case .name: k.name
                case .sealedValue: sealed
                case .domain: k.domain
                case .path: k.path
                case .expiresAt: k.expiresAt?.secondsSinceEpoch
                case .secure: k.secure
                case .httpOnly: k.httpOnly
                }
            }
        }
        for (name, value) in c.idTokenClaims {
            try Self.insertRow(db) { (column: ClaimColumn) -> (any DatabaseValueConvertible)? in
                switch column {
                case .accountId: accountId
                case .name: name
                case .value: value
                }
            }
        }
        for (name, value) in c.extras {
            let sealed = try box.sealString(value, context: SealingContext.extra(accountId, name, provider: provider, subject: subject))
            try Self.insertRow(db) { (column: ExtraColumn) -> (any DatabaseValueConvertible)? in
                switch column {
                case .accountId: accountId
                case .name: name
                case .sealedValue: sealed
                }
            }
        }
    }

    /// Inserts one row of `C`'s table, every column named by its description and given the
    /// value `value` says it holds (a switch over the columns: a column added to the table
    /// and not here does not compile).
    static func insertRow<C: TableColumn>(_ db: Database, _ value: (C) -> (any DatabaseValueConvertible)?) throws {
        let placeholders = Array(repeating: "?", count: C.allCases.count).joined(separator: ",")
        try db.cachedStatement(sql: "INSERT INTO \(C.table) (\(C.list)) VALUES (\(placeholders))")
            .execute(arguments: StatementArguments(C.allCases.map(value)))
    }
}
