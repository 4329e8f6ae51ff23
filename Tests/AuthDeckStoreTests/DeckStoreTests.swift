import Testing
import Foundation
import GRDB
import AuthDeckCore
@testable import AuthDeckStore
import AuthDeckVault
import AuthDeckTestSupport
import AuthDeckPlatform

/// The store on real temporary files: permissions, round trips, sealing, refusal to touch
/// what is not ours.
@Suite struct DeckStoreTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))

    func location(_ dir: TempDirectory) -> StoreLocation {
        StoreLocation(databasePath: dir.file("data/authdeck.db"), keyFilePath: dir.file("data/key"))
    }

    func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    @Test func createsPrivateFilesAndDirectory() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        let store = try DeckStore.open(loc, clock: clock)
        #expect(mode(loc.databasePath) == 0o600)
        #expect(mode(loc.keyFilePath) == 0o600)
        #expect(mode(dir.file("data")) == 0o700)
        #expect(store.warnings.isEmpty)
        #expect(store.keySource == "key file \(loc.keyFilePath)")
        #expect(try store.events(since: nil, accountId: nil, limit: nil).map(\.kind) == [.keyCreated])
    }

    /// What the open deck decides a whole reread on: its own writes leave `dataVersion` as it
    /// was, a commit through another connection (another process) moves it; and the narrow read
    /// of one row's identity group brings that account and its duplicates, no secret opened.
    @Test func dataVersionMovesOnlyForOtherConnectionsAndOneIdentityIsReadAlone() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        let store = try DeckStore.open(loc, clock: clock)
        func account(_ id: String, subject: String) -> StoredAccount {
            StoredAccount(account: Account(id: id, providerId: "p", subject: subject, username: "u", createdAt: clock.now()),
                          credentials: Credentials(refreshToken: RefreshToken(id: "r-" + id, value: Secret("rt-" + id), generation: 1,
                                                                              obtainedAt: clock.now())))
        }
        let before = try store.dataVersion()
        try store.insert(account("p/1", subject: "a"))
        try store.insert(account("p/2", subject: "a"))
        #expect(try store.dataVersion() == before, "this process's own writes")
        let other = try DeckStore.open(loc, clock: clock)
        try other.insert(account("p/3", subject: "b"))
        #expect(try store.dataVersion() != before, "another connection's commit")
        let group = try store.accountSummaries(sharingIdentityWith: "p/2")
        #expect(group.map(\.account.id).sorted() == ["p/1", "p/2"])
        #expect(group.allSatisfy { $0.credentials.refreshToken?.value == .unopened })
        #expect(try store.accountSummaries(sharingIdentityWith: "p/3").map(\.account.id) == ["p/3"])
        #expect(try store.accountSummaries(sharingIdentityWith: "gone").isEmpty)
    }

    @Test func manyProcessesOpeningANewStoreAtOnceShareOneKey() throws {
        // Eight openers race on a store that does not exist yet (scripts starting in parallel
        // on a fresh machine): every one succeeds, and they all use the same data key.
        for _ in 0..<5 {
            let dir = TempDirectory()
            let loc = location(dir)
            let clock = self.clock
            let stores = Locked<[DeckStore]>([])
            let errors = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do {
                    let store = try DeckStore.open(loc, clock: clock)
                    stores.mutate { $0.append(store) }
                } catch {
                    errors.mutate { $0.append("\(error)") }
                }
            }
            #expect(errors.value.isEmpty, "\(errors.value)")
            let all = stores.value
            try #require(all.count == 8)
            try all[0].insert(StoredAccount(account: Account(id: "p/1", providerId: "p", subject: "s", username: "u", createdAt: clock.now()),
                                            credentials: Credentials(refreshToken: RefreshToken(id: "r", value: Secret("rt-value"), generation: 1,
                                                                                                obtainedAt: clock.now()))))
            for store in all {
                #expect(try store.account(id: "p/1")?.credentials.refreshToken?.value.exposedValue == "rt-value")
            }
        }
    }

    @Test func refusesLooseModesAndWarnsAboutAListableDirectory() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        _ = try DeckStore.open(loc, clock: clock)
        chmod(loc.databasePath, 0o644)
        #expect(throws: StoreError.io(path: loc.databasePath, detail: "store mode is 0644: other users could read or replace it, so authdeck will not use it; fix it with: chmod 600 \(loc.databasePath)")) {
            try DeckStore.open(loc, clock: clock)
        }
        chmod(loc.databasePath, 0o600)
        chmod(loc.keyFilePath, 0o640)
        #expect(throws: StoreError.io(path: loc.keyFilePath, detail: "key file mode is 0640: other users could read or replace it, so authdeck will not use it; fix it with: chmod 600 \(loc.keyFilePath)")) {
            try DeckStore.open(loc, clock: clock)
        }
        chmod(loc.keyFilePath, 0o600)
        chmod(dir.file("data"), 0o755)
        let listable = try DeckStore.open(loc, clock: clock)
        #expect(listable.warnings == ["\(dir.file("data")): directory mode is 0755: other users can list it; authdeck expects 0700 (chmod 700 \(dir.file("data")))"])
    }

    @Test func roundTripsEveryCredentialKind() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        let fixture = DeckFixture(now: clock.now())
        for stored in fixture.accounts { try store.insert(stored) }
        let loaded = try store.accounts(includeQuarantined: false)
        #expect(Set(loaded) == Set(fixture.accounts))
        let one = try store.account(id: "sp/0000a012")
        #expect(one == fixture.accounts.first { $0.account.id == "sp/0000a012" })
    }

    /// The front trusts a store's columns only when every applied migration is one it knows:
    /// the list it knows must be the store's own, in order.
    @Test func theFrontKnowsEveryMigrationTheStoreApplies() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        _ = store
        let r = try BinaryRunner(executable: "/usr/bin/sqlite3", environment: [:])
            .run([location(dir).databasePath, "SELECT identifier FROM grdb_migrations ORDER BY rowid"])
        #expect(r.stdout.split(separator: "\n").map(String.init) == StoreLayout.migrations)
    }

    /// The store stamps the schema version the front checks (`StoreLayout.schemaVersion`, in
    /// SQLite's user_version) when its last migration runs, and on opening a store migrated by
    /// an authdeck that did not stamp it (every store before issue 42: user_version 0); a newer
    /// authdeck's store is not written.
    @Test func theSchemaVersionIsStampedForTheFront() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        _ = try DeckStore.open(loc, clock: clock)
        func version() throws -> Int {
            let queue = try DatabaseQueue(path: loc.databasePath)
            defer { try? queue.close() }
            return try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1 }
        }
        func set(_ sql: String) throws {
            let queue = try DatabaseQueue(path: loc.databasePath)
            try queue.write { db in try db.execute(sql: sql) }
            try queue.close()
        }
        #expect(try version() == StoreLayout.schemaVersion && StoreLayout.schemaVersion == StoreMigration.allCases.count)
        try set("PRAGMA user_version = 0")
        _ = try DeckStore.open(loc, clock: clock)
        #expect(try version() == StoreLayout.schemaVersion, "an unstamped store is stamped on opening")
        try set("INSERT INTO grdb_migrations (identifier) VALUES ('999-from-the-future'); PRAGMA user_version = 0")
        _ = try DeckStore.open(loc, clock: clock)
        #expect(try version() == 0, "a newer authdeck's store is only read")
    }

    /// Each table's description (`AccountColumn`, `AccessTokenColumn`, …) names exactly the
    /// columns the migrations make, in the order of the table: a column added to the schema
    /// and not to its description (or the reverse) fails here, not as a field read as another.
    @Test func everyTableDescriptionIsTheSchemasOwn() throws {
        let dir = TempDirectory()
        _ = try DeckStore.open(location(dir), clock: clock)
        let queue = try DatabaseQueue(path: location(dir).databasePath)
        defer { try? queue.close() }
        func columns(_ table: String) throws -> [String] {
            try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table]) }
        }
        #expect(try columns(AccountColumn.table) == AccountColumn.allCases.map(\.name) + ["seal"], "the seal is the store's own")
        #expect(try columns(AccessTokenColumn.table) == AccessTokenColumn.allCases.map(\.name))
        #expect(try columns(RefreshTokenColumn.table) == RefreshTokenColumn.allCases.map(\.name))
        #expect(try columns(CookieColumn.table) == CookieColumn.allCases.map(\.name))
        #expect(try columns(ClaimColumn.table) == ClaimColumn.allCases.map(\.name))
        #expect(try columns(ExtraColumn.table) == ExtraColumn.allCases.map(\.name))
    }

    /// The narrow read by provider and subject: that provider's accounts only, quarantined ones
    /// too, each with its own credentials opened.
    @Test func accountsBySubjectAreTheProvidersOwnWithTheirCredentials() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        let fixture = DeckFixture(now: clock.now())
        for stored in fixture.accounts { try store.insert(stored) }
        let sample = try #require(fixture.accounts.first { !$0.credentials.isEmpty })
        let provider = sample.account.providerId
        let bySubject = try store.accounts(providerId: provider, subject: sample.account.subject)
        #expect(Set(bySubject) == Set(fixture.accounts.filter { $0.account.providerId == provider && $0.account.subject == sample.account.subject }))
        #expect(bySubject.contains(sample), "credentials opened, equal to what was stored")
        #expect(Set(try store.accounts(providerId: provider, subject: nil)) == Set(fixture.accounts.filter { $0.account.providerId == provider }))
        #expect(try store.accounts(providerId: provider, subject: "no such subject").isEmpty)
        #expect(try store.accounts(providerId: "nope", subject: nil).isEmpty)
        let candidate = PruneCandidate(account: sample.account, reason: .signInNeverCompleted)
        #expect(try store.quarantine([candidate], at: clock.now()) { _ in [candidate] }.count == 1)
        #expect(try store.accounts(providerId: provider, subject: sample.account.subject).contains { $0.account.id == sample.account.id && $0.account.quarantinedAt != nil },
                "quarantined accounts are found too (a sign-in brings them back)")
    }

    /// Listings sort in Swift (not in SQLite) and attach credentials through a map of
    /// positions: the order must still be SQLite's BINARY order on (provider, username, id) —
    /// for non-ASCII names and canonically equivalent spellings too — and every credential
    /// must land on its own account, none on a quarantined one's neighbour.
    @Test func listingsKeepSQLiteByteOrderAndCredentialsOnTheirAccounts() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        var rng = SystemRandomNumberGenerator()
        let providers = ["work", "Work", "ä-tenant", "z", "日本"]
        // (and names alike in their first 16 bytes, which the sort's integer keys cannot tell apart)
        let names = ["taro", "Taro", "\u{E9}mile", "e\u{301}mile", "太郎", "zoë", "a", "", "averyveryverylongname.b", "averyveryverylongname"]
        var expected: [String: StoredAccount] = [:]
        for i in 0..<300 {
            let provider = providers.randomElement(using: &rng)!
            let id = "\(provider)/\(String(format: "%08x", UInt32.random(in: 0...UInt32.max, using: &rng)))"
            let token = AccessToken(id: "at-\(i)", value: Secret("value-\(i)"), scopes: ["s\(i)"], obtainedAt: clock.now(),
                                    expiresAt: clock.now() + .hours(1))
            let account = Account(id: id, providerId: provider, subject: "subject-\(i % 50)",
                                  username: names.randomElement(using: &rng)! + "\(i % 7)", createdAt: clock.now(),
                                  quarantinedAt: i % 10 == 0 ? clock.now() : nil)
            // Some accounts hold two tokens and a refresh token (several rows per account and table).
            let second = AccessToken(id: "at2-\(i)", value: Secret("second-\(i)"), scopes: ["t\(i)"], obtainedAt: clock.now() + .seconds(1),
                                     expiresAt: nil)
            let refresh = RefreshToken(id: "rt-\(i)", value: Secret("refresh-\(i)"), generation: 1, obtainedAt: clock.now(), expiresAt: nil)
            let credentials = i % 3 == 0 ? Credentials(accessTokens: [token, second], refreshToken: refresh) : Credentials(accessTokens: [token])
            let stored = StoredAccount(account: account, credentials: credentials)
            try store.insert(stored)
            if account.quarantinedAt == nil { expected[id] = stored }
        }
        // Credentials written again later sit after everyone else's rows: out of the order the
        // accounts are read in, they must still land on their own account.
        for (n, id) in expected.keys.sorted().enumerated() where n % 4 == 1 {
            var stored = try #require(expected[id])
            stored.credentials = Credentials(accessTokens: [AccessToken(id: "re-\(n)", value: Secret("re-\(n)"), scopes: ["r"],
                                                                        obtainedAt: clock.now(), expiresAt: nil)],
                                             refreshToken: RefreshToken(id: "rr-\(n)", value: Secret("rr-\(n)"), generation: 2,
                                                                        obtainedAt: clock.now(), expiresAt: nil))
            try store.replaceCredentials(stored.credentials, accountId: id)
            expected[id] = stored
        }
        let queue = try DatabaseQueue(path: location(dir).databasePath)
        let sqliteOrder = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM accounts WHERE quarantined_at IS NULL ORDER BY provider_id, username, id")
        }
        let listed = try store.accounts(includeQuarantined: false)
        #expect(listed.map(\.account.id) == sqliteOrder)
        #expect(try store.accountSummaries().map(\.account.id) == sqliteOrder)
        #expect(try store.accountRows().map(\.id) == sqliteOrder)
        for stored in listed { #expect(stored == expected[stored.account.id]) }
        #expect(try store.accounts(includeQuarantined: true).count == 300)
    }

    @Test func updatingAnAccountKeepsItsCredentials() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        let stored = DeckFixture(now: clock.now()).accounts[0]
        try store.insert(stored)
        var account = stored.account
        account.displayName = "renamed"
        try store.update(account)
        try store.saveSignIn(account, credentials: stored.credentials,
                             event: DeckEvent(at: clock.now(), kind: .signInSucceeded, accountId: account.id))
        let back = try #require(try store.account(id: account.id))
        #expect(back.account.displayName == "renamed")
        #expect(back.credentials == stored.credentials)
    }

    @Test func renewalCommitIsCompareAndSwapOnTheGeneration() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        let stored = DeckFixture(now: clock.now()).accounts[0]
        try store.insert(stored)
        let generation = try #require(stored.credentials.refreshToken?.generation)
        var renewed = stored.credentials
        renewed.refreshToken?.value = Secret("rotated-1")
        renewed.refreshToken?.generation = generation + 1
        let event = DeckEvent(at: clock.now(), kind: .refreshed, accountId: stored.account.id)
        let started = try #require(stored.credentials.refreshToken?.stamp)
        #expect(try store.commitRenewal(renewed, accountId: stored.account.id, expected: started, event: event))
        // A second writer that started from the old generation loses and writes nothing.
        var stale = stored.credentials
        stale.refreshToken?.value = Secret("rotated-elsewhere")
        #expect(try !store.commitRenewal(stale, accountId: stored.account.id, expected: started, event: event))
        #expect(try store.account(id: stored.account.id)?.credentials.refreshToken?.value == Secret("rotated-1"))
        // A sign-in since (the generation back where the renewal started, another token): a
        // renewal begun before it loses too — it put a signed-out grant back over the sign-in.
        var signedIn = stored.credentials
        signedIn.refreshToken = RefreshToken(id: "after-sign-in", value: Secret("new-grant"), generation: generation, obtainedAt: clock.now())
        try store.replaceCredentials(signedIn, accountId: stored.account.id)
        #expect(try !store.commitRenewal(stale, accountId: stored.account.id, expected: started, event: event))
        #expect(try store.account(id: stored.account.id)?.credentials.refreshToken?.value == Secret("new-grant"))
    }

    /// Renewals committed together (one transaction, one sync) keep each their own generation
    /// check and their own result: a stale one or a failing one changes nothing of the others.
    @Test func renewalsCommittedInOneGroupEachKeepTheirOwnOutcome() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        let renewable = DeckFixture(now: clock.now()).accounts.filter { $0.credentials.refreshToken != nil }.prefix(3)
        try #require(renewable.count == 3)
        for stored in renewable { try store.insert(stored) }
        func commit(_ stored: StoredAccount, generationOffset: Int = 0, accountId: String? = nil) -> RenewalCommit {
            var renewed = stored.credentials
            renewed.refreshToken?.value = Secret("rotated-" + stored.account.id)
            renewed.refreshToken?.generation += 1
            // An account that is not there has no generation (nil): its writes are tried, and fail.
            return RenewalCommit(credentials: renewed, accountId: accountId ?? stored.account.id,
                                 expected: accountId != nil ? nil : RefreshTokenStamp(generation: stored.credentials.refreshToken!.generation + generationOffset,
                                                                                      id: stored.credentials.refreshToken!.id),
                                 event: DeckEvent(at: clock.now(), kind: .refreshed, accountId: accountId ?? stored.account.id))
        }
        let (a, b, c) = (renewable[renewable.startIndex], renewable[renewable.startIndex + 1], renewable[renewable.startIndex + 2])
        let results = try store.commitRenewals([commit(a), commit(b, generationOffset: -1), commit(c, accountId: "gone/1"), commit(c)])
        #expect(try results[0].get() == true)
        #expect(try results[1].get() == false)  // stale: another writer rotated it first
        #expect(throws: StoreError.self) { try results[2].get() }  // no such account: its savepoint rolled back alone
        #expect(try results[3].get() == true)
        #expect(try store.account(id: a.account.id)?.credentials.refreshToken?.value == Secret("rotated-" + a.account.id))
        #expect(try store.account(id: b.account.id)?.credentials == b.credentials)
        #expect(try store.account(id: c.account.id)?.credentials.refreshToken?.value == Secret("rotated-" + c.account.id))
        #expect(try store.events(since: nil, accountId: "gone/1", limit: nil).isEmpty)
    }

    /// Many renewals finishing at once through the group commit: each gets its own answer,
    /// exactly one of two racing on the same generation wins, and every winner is on disk.
    @Test func renewalsFinishingAtOnceAreAllCommitted() async throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        var accounts: [StoredAccount] = []
        let template = try #require(DeckFixture(now: clock.now()).accounts.first { $0.credentials.refreshToken != nil })
        for i in 0..<40 {
            var stored = template
            stored.account.id = "\(template.account.providerId)/group\(i)"
            stored.account.subject = "subject-\(i)"
            stored.credentials.accessTokens = []  // their ids are the template's
            stored.credentials.cookies = []
            try store.insert(stored)
            accounts.append(stored)
        }
        let generation = try #require(template.credentials.refreshToken?.generation)
        // Each account twice from the same generation, as two processes that raced past the lease.
        let won = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
            for stored in accounts {
                for attempt in 0..<2 {
                    group.addTask {
                        var renewed = stored.credentials
                        renewed.refreshToken?.value = Secret("rotated-\(attempt)")
                        renewed.refreshToken?.generation = generation + 1
                        let ok = try await store.commitRenewalInGroup(renewed, accountId: stored.account.id, expected: template.credentials.refreshToken?.stamp,
                                                                      event: DeckEvent(at: clock.now(), kind: .refreshed, accountId: stored.account.id))
                        return (stored.account.id, ok)
                    }
                }
            }
            var won: [String: Int] = [:]
            for try await (id, ok) in group where ok { won[id, default: 0] += 1 }
            return won
        }
        #expect(won.count == 40 && won.values.allSatisfy { $0 == 1 })
        // On disk for a fresh connection, as the next process sees it.
        let reopened = try DeckStore.open(location(dir), clock: clock)
        for stored in accounts {
            let token = try #require(try reopened.account(id: stored.account.id)?.credentials.refreshToken)
            #expect(token.generation == generation + 1 && token.value != stored.credentials.refreshToken?.value)
        }
    }

    @Test func leasesExcludeOtherLiveHoldersButNotDeadOnes() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        let now = clock.now()
        #expect(try store.acquireRenewalLease(accountId: "a/1", holder: DeckStore.leaseHolder, until: now + .seconds(60), now: now))
        // pid 1 is alive on every Linux machine.
        let other = "1@" + DeckStore.leaseHolder.split(separator: "@")[1]
        #expect(try !store.acquireRenewalLease(accountId: "a/1", holder: other, until: now + .seconds(60), now: now))
        #expect(try store.acquireRenewalLease(accountId: "a/1", holder: other, until: now + .seconds(60), now: now + .seconds(61)))
        // A holder whose process is gone loses the lease at once.
        let dead = "2147483646@" + DeckStore.leaseHolder.split(separator: "@")[1]
        #expect(try store.acquireRenewalLease(accountId: "a/2", holder: dead, until: now + .seconds(60), now: now))
        #expect(try store.acquireRenewalLease(accountId: "a/2", holder: DeckStore.leaseHolder, until: now + .seconds(60), now: now))
        try store.releaseRenewalLease(accountId: "a/2", holder: DeckStore.leaseHolder)
    }

    @Test func noSecretReachesTheFileOrTheWAL() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        let store = try DeckStore.open(loc, clock: clock)
        let fixture = DeckFixture(now: clock.now())
        for stored in fixture.accounts { try store.insert(stored) }
        var extra = fixture.accounts[0]
        extra.credentials.extras["oam.password"] = Secret("fixture-secret-password-Zq8")
        try store.replaceCredentials(extra.credentials, accountId: extra.account.id)
        // While the store is open the WAL holds the recent pages: check every file.
        let files = [loc.databasePath, loc.databasePath + "-wal", loc.databasePath + "-shm"]
        let blobs = files.map(bytes)
        #expect(blobs[1].count > 0, "the WAL should hold the writes")
        for secret in fixture.secrets + ["fixture-secret-password-Zq8"] {
            for (file, blob) in zip(files, blobs) {
                #expect(blob.range(of: Data(secret.utf8)) == nil, "\(secret) found in \(file)")
            }
        }
        // And the values are really there, sealed: they read back.
        #expect(try store.account(id: extra.account.id)?.credentials.extras["oam.password"] == Secret("fixture-secret-password-Zq8"))
    }

    @Test func aSealedValueMovedToAnotherRowDoesNotOpen() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        let store = try DeckStore.open(loc, clock: clock)
        let fixture = DeckFixture(now: clock.now())
        for stored in fixture.accounts.prefix(2) { try store.insert(stored) }
        try store.write { db in
            try db.execute(sql: "UPDATE access_tokens SET sealed_value = (SELECT sealed_value FROM access_tokens WHERE id = 'at-soon') WHERE id = 'at-valid'")
        }
        #expect(throws: StoreError.self) { try store.accounts(includeQuarantined: false) }
    }

    /// Attack 10: an access token's sealing bound only its row, so its account, scopes and
    /// expiry could be edited in the database and the token still opened.
    @Test func anAccessTokenMovedToAnotherAccountOrGivenOtherScopesOrExpiryDoesNotOpen() throws {
        let edits = [
            "UPDATE access_tokens SET account_id = 'work/0000a002' WHERE id = 'at-valid'",
            "UPDATE access_tokens SET scopes = 'https://graph.microsoft.com/.default Mail.Send' WHERE id = 'at-valid'",
            "UPDATE access_tokens SET expires_at = expires_at + 86400 WHERE id = 'at-valid'",
            "UPDATE access_tokens SET expires_at = NULL WHERE id = 'at-valid'",
            "UPDATE access_tokens SET requested_scopes = 'https://contoso.sharepoint.com/.default' WHERE id = 'at-valid'",
        ]
        for edit in edits {
            let dir = TempDirectory()
            let store = try DeckStore.open(location(dir), clock: clock)
            let fixture = DeckFixture(now: clock.now())
            for stored in fixture.accounts.prefix(2) { try store.insert(stored) }
            try store.write { db in
                try db.execute(sql: "DELETE FROM access_tokens WHERE id = 'at-soon'")
                try db.execute(sql: edit)
            }
            #expect(throws: StoreError.self, "\(edit)") { try store.accounts(includeQuarantined: false) }
        }
    }

    /// A store sealed before the binding (version 1) is re-sealed when opened, in one
    /// transaction: every token reads back, and the binding then holds.
    @Test func aVersionOneStoreIsResealedOnOpen() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        let fixture = DeckFixture(now: clock.now())
        // What a version-1 store holds: tokens sealed to their row alone, no record of re-sealing.
        try SealedMetadataTests().makeVersionTwo(loc, fixture, accessTokensV1: true)
        let store = try DeckStore.open(loc, clock: clock)
        let read = try store.accounts(includeQuarantined: false)
        let want = fixture.accounts.filter { $0.account.quarantinedAt == nil }
        let readValues: [String] = read.flatMap { $0.credentials.accessTokens.map { $0.value.exposedValue } }.sorted()
        let wantValues: [String] = want.flatMap { $0.credentials.accessTokens.map { $0.value.exposedValue } }.sorted()
        #expect(!readValues.isEmpty)
        #expect(readValues == wantValues)
        try store.write { db in
            try db.execute(sql: "UPDATE access_tokens SET account_id = 'work/0000a002' WHERE id = 'at-valid'")
        }
        #expect(throws: StoreError.self) { try store.accounts(includeQuarantined: false) }
    }

    @Test func refusesGarbageAndLeavesItUntouched() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        try FileManager.default.createDirectory(atPath: dir.file("data"), withIntermediateDirectories: true)
        let garbage = Data("this is not a database, it is a shopping list\n".utf8)
        _ = FileManager.default.createFile(atPath: loc.databasePath, contents: garbage)
        #expect(throws: StoreError.notADatabase(path: loc.databasePath, detail: "not an SQLite database")) {
            try DeckStore.open(loc, clock: clock)
        }
        #expect(bytes(loc.databasePath) == garbage)
        #expect(!FileManager.default.fileExists(atPath: loc.keyFilePath), "no key is made for a store we refused")
    }

    @Test func refusesAnotherProgramsSQLiteDatabase() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        try FileManager.default.createDirectory(atPath: dir.file("data"), withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: loc.databasePath)
        try queue.write { db in try db.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')") }
        try queue.close()
        let before = bytes(loc.databasePath)
        #expect(throws: StoreError.notADatabase(path: loc.databasePath, detail: "an SQLite database of another program")) {
            try DeckStore.open(loc, clock: clock)
        }
        #expect(bytes(loc.databasePath) == before)
    }

    /// A store another process is writing its first page of, caught half written, is not
    /// refused as "not an SQLite database": the verdict waits for a second look (the reliability
    /// campaign's four sign-ins at once on a new store failed once on it).
    @Test func aStoreCaughtHalfWrittenIsOpenedOnASecondLook() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        do {
            let store = try DeckStore.open(loc, clock: clock)
            try store.insert(DeckFixture(now: clock.now()).accounts[0])
        }
        let whole = bytes(loc.databasePath)
        try #require(whole.count > 4096)
        // The first 24 bytes only, as a reader may see a page the writer is still copying in.
        _ = FileManager.default.createFile(atPath: loc.databasePath, contents: whole.prefix(24), attributes: [.posixPermissions: 0o600])
        try? FileManager.default.removeItem(atPath: loc.databasePath + "-wal")
        try? FileManager.default.removeItem(atPath: loc.databasePath + "-shm")
        let path = loc.databasePath
        let writer = Thread {
            usleep(5_000)
            let fd = open(path, O_WRONLY)
            _ = whole.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            close(fd)
        }
        writer.start()
        let store = try DeckStore.open(loc, clock: clock)
        #expect(try store.accountRows().count == 1)
        // A file that stays foreign is still refused, untouched.
        let foreign = Data("this is no database, and it stays that way".utf8)
        _ = FileManager.default.createFile(atPath: dir.file("other.db"), contents: foreign, attributes: [.posixPermissions: 0o600])
        var other = loc
        other.databasePath = dir.file("other.db")
        #expect(throws: StoreError.self) { try DeckStore.open(other, clock: clock) }
        #expect(bytes(dir.file("other.db")) == foreign)
    }

    @Test func refusesADamagedStoreWithoutWriting() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        do {
            let store = try DeckStore.open(loc, clock: clock)
            for stored in DeckFixture(now: clock.now()).accounts { try store.insert(stored) }
        }
        var damaged = bytes(loc.databasePath)
        #expect(damaged.count > 8192)
        // Keep the header (so it still looks like ours) and wreck the schema pages.
        for i in 100..<min(damaged.count, 40_000) { damaged[i] = UInt8(truncatingIfNeeded: i &* 31) }
        _ = FileManager.default.createFile(atPath: loc.databasePath, contents: damaged)
        try? FileManager.default.removeItem(atPath: loc.databasePath + "-wal")
        try? FileManager.default.removeItem(atPath: loc.databasePath + "-shm")
        let thrown = #expect(throws: StoreError.self) { try DeckStore.open(loc, clock: clock) }
        #expect(bytes(loc.databasePath) == damaged)
        // Worded for a person and naming the file, never GRDB's bare "SQLite error N … while executing".
        let text = thrown.map { "\($0)" } ?? ""
        #expect(text.hasPrefix(loc.databasePath + ": "), "\(text)")
        #expect(!text.contains("SQLite error") && !text.contains("while executing"), "\(text)")
    }

    @Test func keyFileProblemsAreNamedAndNothingIsReplaced() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        _ = try DeckStore.open(loc, clock: clock)
        let goodKey = bytes(loc.keyFilePath)
        let store = bytes(loc.databasePath)

        // Missing.
        try FileManager.default.removeItem(atPath: loc.keyFilePath)
        #expect(throws: StoreError.self) { try DeckStore.open(loc, clock: clock) }
        #expect(!FileManager.default.fileExists(atPath: loc.keyFilePath), "a missing key must not be silently re-created")
        // Garbage.
        _ = FileManager.default.createFile(atPath: loc.keyFilePath, contents: Data("garbage".utf8))
        do {
            _ = try DeckStore.open(loc, clock: clock)
            Issue.record("opened with a garbage key")
        } catch let e as StoreError {
            #expect(e.description.hasPrefix(loc.keyFilePath + ": not an authdeck key file"))
        }
        // A directory where the key should be.
        try FileManager.default.removeItem(atPath: loc.keyFilePath)
        try FileManager.default.createDirectory(atPath: loc.keyFilePath, withIntermediateDirectories: false)
        #expect(throws: StoreError.self) { try DeckStore.open(loc, clock: clock) }
        try FileManager.default.removeItem(atPath: loc.keyFilePath)
        // Checked before the database is opened: not a byte of it changed.
        #expect(bytes(loc.databasePath) == store)
        // Another valid key: the store must be opened to read its wrapped data key, so SQLite
        // may checkpoint its WAL; the content stays the same (the right key opens it below).
        let other = TempDirectory()
        _ = try DeckStore.open(location(other), clock: clock)
        _ = FileManager.default.createFile(atPath: loc.keyFilePath, contents: bytes(location(other).keyFilePath))
        chmod(loc.keyFilePath, 0o600)
        #expect(throws: StoreError.keyMismatch(keyPath: loc.keyFilePath, storePath: loc.databasePath)) {
            try DeckStore.open(loc, clock: clock)
        }
        // The right key still opens it.
        try FileManager.default.removeItem(atPath: loc.keyFilePath)
        _ = FileManager.default.createFile(atPath: loc.keyFilePath, contents: goodKey)
        chmod(loc.keyFilePath, 0o600)
        _ = try DeckStore.open(loc, clock: clock)
    }

    @Test func quarantineRestoreAndPurge() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        let fixture = DeckFixture(now: clock.now())
        for stored in fixture.accounts { try store.insert(stored) }
        let candidates = PrunePolicy.candidates(fixture.accounts, providers: nil, settings: .standard,
                                                statePolicy: .standard, now: clock.now())
        #expect(!candidates.isEmpty)
        #expect(try store.quarantine(candidates, at: clock.now()) { _ in candidates }.count == candidates.count)
        let live = try store.accounts(includeQuarantined: false)
        #expect(live.count == fixture.accounts.count - candidates.count)
        let restored = try store.restore(ids: [candidates[0].account.id])
        #expect(restored.map(\.id) == [candidates[0].account.id])
        #expect(try store.account(id: candidates[0].account.id)?.credentials
                == fixture.accounts.first { $0.account.id == candidates[0].account.id }?.credentials)
        clock.advance(.days(31))
        let purged = try store.purgeQuarantine(before: clock.now() - .days(30))
        #expect(Set(purged.map(\.id)) == Set(candidates.dropFirst().map(\.account.id)))
        #expect(try store.accounts(includeQuarantined: true).count == fixture.accounts.count - candidates.count + 1)
        let kinds = try store.events(since: nil, accountId: nil, limit: nil).map(\.kind)
        #expect(kinds.filter { $0 == .pruned }.count == candidates.count)
        #expect(kinds.filter { $0 == .restored }.count == 1)
        #expect(kinds.filter { $0 == .purged }.count == candidates.count - 1)
    }

    @Test func eventsFilterBySinceAndAccount() throws {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        let t0 = clock.now()
        try store.append(DeckEvent(at: t0 - .days(2), kind: .signInSucceeded, accountId: "a/1", providerId: "a"))
        try store.append(DeckEvent(at: t0 - .hours(1), kind: .refreshed, accountId: "a/1", providerId: "a"))
        try store.append(DeckEvent(at: t0 - .minutes(5), kind: .logout, accountId: "b/2", providerId: "b"))
        // In insertion order; opening the store logged key_created at t0 too.
        #expect(try store.events(since: t0 - .hours(2), accountId: nil, limit: nil).map(\.kind) == [.keyCreated, .refreshed, .logout])
        #expect(try store.events(since: nil, accountId: "a/1", limit: nil).map(\.kind) == [.signInSucceeded, .refreshed])
        #expect(try store.events(since: nil, accountId: nil, limit: 1).map(\.kind) == [.logout])
    }

    @Test func aStoreFromTheFirstSchemaIsMigratedKeepingItsAccounts() throws {
        // Build a store as the first version left it: only migration 001 applied.
        let dir = TempDirectory()
        let loc = location(dir)
        do {
            let store = try DeckStore.open(loc, clock: clock)
            for stored in DeckFixture(now: clock.now()).accounts { try store.insert(stored) }
        }
        let queue = try DatabaseQueue(path: loc.databasePath)
        try queue.write { db in
            try db.execute(sql: "DROP TABLE provider_secrets; DELETE FROM grdb_migrations WHERE identifier = '002-provider-secrets'")
        }
        try queue.close()
        let reopened = try DeckStore.open(loc, clock: clock)
        #expect(try reopened.accounts(includeQuarantined: false).count == DeckFixture(now: clock.now()).accounts.count)
        try reopened.setProviderSecret(Secret("-----BEGIN CERTIFICATE-----x"), name: "client.certificate", provider: "oam")
        #expect(try reopened.providerSecret("client.certificate", provider: "oam") == Secret("-----BEGIN CERTIFICATE-----x"))
        let blob = FileManager.default.contents(atPath: loc.databasePath + "-wal") ?? Data()
        #expect(blob.range(of: Data("BEGIN CERTIFICATE-----x".utf8)) == nil, "sealed, not in clear")
    }

    @Test func migrationsAreRecordedByNameAndReopenIsIdempotent() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        _ = try DeckStore.open(loc, clock: clock)
        _ = try DeckStore.open(loc, clock: clock)
        let queue = try DatabaseQueue(path: loc.databasePath)
        let names = try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(names == ["001-initial", "002-provider-secrets", "003-access-token-requested-scopes", "004-sealed-metadata"])
        #expect(names == StoreMigration.allCases.map(\.rawValue), "the names the front knows are the ones the store records")
        let appID = try queue.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }
        #expect(appID == 0x4144_4B31)
    }

    @Test func aPassphraseStoreNeedsNoKeyFileAndNamesAWrongOrMissingPassphrase() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        let keyFile = KeyFile(path: loc.keyFilePath)
        let store = try DeckStore.open(loc, clock: clock)
        let migration = try store.migrateKey(to: .passphrase, keys: KeySources(keyFile: keyFile) { _ in "hunter2 but longer" })
        #expect(migration.from == .file && migration.to == .passphrase)
        #expect(migration.notes.contains { $0.contains(loc.keyFilePath) }, "the key file is left and said so")
        // The key file is gone: a passphrase store does not need it (the read-only peek finds the source).
        try FileManager.default.removeItem(atPath: loc.keyFilePath)
        let reopened = try DeckStore.open(loc, clock: clock, keys: KeySources(keyFile: keyFile) { _ in "hunter2 but longer" })
        #expect(reopened.keyKind == .passphrase && reopened.keySource.hasPrefix("passphrase (scrypt N=32768)"))
        #expect(throws: StoreError.keySource(source: "passphrase", detail: "wrong passphrase for \(loc.databasePath)")) {
            try DeckStore.open(loc, clock: clock, keys: KeySources(keyFile: keyFile) { _ in "hunter3" })
        }
        do {
            _ = try DeckStore.open(loc, clock: clock)
            Issue.record("opened without a passphrase")
        } catch let e as StoreError {
            #expect(e.description.contains("AUTHDECK_PASSPHRASE_FILE"), "\(e)")
        }
        #expect(!FileManager.default.fileExists(atPath: loc.keyFilePath), "no key file is created for a passphrase store")
        // Back to a (new) key file.
        let back = try reopened.migrateKey(to: .file, keys: KeySources(keyFile: keyFile))
        #expect(back.to == .file)
        #expect(try DeckStore.open(loc, clock: clock).keySource == "key file \(loc.keyFilePath)")
    }
}

/// A value shared by the threads of a test.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
