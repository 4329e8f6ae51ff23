import Testing
import Foundation
import GRDB
import AuthDeckCore
@testable import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// What decides where a secret goes, for whom and until when is sealed with it: each edit a
/// writer without the key can make is refused (or, for the document cache, discarded), and
/// the one-time sealing of an older store cannot be replayed to launder an edit.
@Suite struct SealedMetadataTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    /// Every store of a test lives under it (removed when the test's suite value goes).
    let home = TempDirectory()

    func location(_ dir: TempDirectory) -> StoreLocation {
        StoreLocation(databasePath: dir.file("data/authdeck.db"), keyFilePath: dir.file("data/key"))
    }

    /// A store with the fixture's accounts, and `sql` run on its file through a connection of
    /// its own (no key).
    func store(after sql: String) throws -> (DeckStore, DeckFixture) {
        let name = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let loc = StoreLocation(databasePath: home.file("\(name)/data/authdeck.db"), keyFilePath: home.file("\(name)/data/key"))
        let store = try DeckStore.open(loc, clock: clock)
        let fixture = DeckFixture(now: clock.now())
        for stored in fixture.accounts { try store.insert(stored) }
        let queue = try DatabaseQueue(path: loc.databasePath)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return (store, fixture)
    }

    func expectTampered(_ id: String, _ store: DeckStore, _ what: String) {
        #expect(throws: StoreError.accountTampered(accountId: id), "\(what)") { try store.account(id: id) }
        #expect(throws: StoreError.accountTampered(accountId: id), "\(what)") { try store.accounts(includeQuarantined: true) }
    }

    @Test(arguments: [
        "UPDATE accounts SET provider_id = 'prod' WHERE id = 'work/0000a001'",
        "UPDATE accounts SET subject = 'someone-else' WHERE id = 'work/0000a001'",
        "UPDATE accounts SET username = 'admin@contoso.com' WHERE id = 'work/0000a001'",
        "UPDATE accounts SET realm = 'evil-tenant' WHERE id = 'work/0000a001'",
        "UPDATE accounts SET seal = NULL WHERE id = 'work/0000a001'",
        "UPDATE accounts SET seal = (SELECT seal FROM accounts WHERE id = 'work/0000a002') WHERE id = 'work/0000a001'",
    ])
    func anAccountRowEditedWithoutTheKeyIsRefused(edit: String) throws {
        let (store, _) = try store(after: edit)
        expectTampered("work/0000a001", store, edit)
        // Listings show it (nothing of it is opened), so it can be seen and signed out.
        #expect(try store.accountSummaries().contains { $0.account.id == "work/0000a001" })
        #expect(try store.account(id: "work/0000a002") != nil, "other accounts are untouched")
    }

    @Test(arguments: [
        "UPDATE cookies SET domain = '.evil.example' WHERE id = 'ck-fedauth'",
        "UPDATE cookies SET path = '/other' WHERE id = 'ck-fedauth'",
        "UPDATE cookies SET expires_at = expires_at + 31536000 WHERE id = 'ck-fedauth'",
        "UPDATE cookies SET expires_at = NULL WHERE id = 'ck-fedauth'",
        "UPDATE cookies SET name = 'rtFa' WHERE id = 'ck-fedauth'",
        "UPDATE cookies SET secure = 0 WHERE id = 'ck-fedauth'",
        "UPDATE cookies SET http_only = 0 WHERE id = 'ck-fedauth'",
    ])
    func anEditedCookieDoesNotOpen(edit: String) throws {
        let (store, _) = try store(after: edit)
        expectTampered("sp/0000a012", store, edit)
    }

    @Test func aCookieMovedToAnotherAccountDoesNotOpenThere() throws {
        let (store, _) = try store(after: "UPDATE cookies SET account_id = 'work/0000a001' WHERE id = 'ck-fedauth'")
        expectTampered("work/0000a001", store, "cookie moved")
    }

    /// A cached discovery document rewritten (another token endpoint, a fresh fetch time) is
    /// discarded — the caller fetches it again — and the event says so.
    @Test func aRewrittenDocumentIsDiscardedAndFetchedAgain() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        let store = try DeckStore.open(loc, clock: clock)
        let url = "https://login.example/.well-known/openid-configuration"
        try store.cacheDocument(url: url, body: Array(#"{"token_endpoint":"https://login.example/token"}"#.utf8), at: clock.now())
        #expect(try store.cachedDocument(url: url)?.fetchedAt == clock.now())
        for edit in ["UPDATE discovery_cache SET document = replace(document, 'login.example', 'evil.example')",
                     "UPDATE discovery_cache SET fetched_at = fetched_at + 86400",
                     "UPDATE discovery_cache SET url = 'https://other.example/.well-known/openid-configuration'",
                     "UPDATE discovery_cache SET seal = NULL"] {
            try store.cacheDocument(url: url, body: Array(#"{"token_endpoint":"https://login.example/token"}"#.utf8), at: clock.now())
            let queue = try DatabaseQueue(path: loc.databasePath)
            try queue.write { db in try db.execute(sql: edit) }
            try queue.close()
            #expect(try store.cachedDocument(url: url) == nil, "\(edit)")
            #expect(try store.cachedDocument(url: "https://other.example/.well-known/openid-configuration") == nil, "\(edit)")
        }
        let discarded = try store.events(since: nil, accountId: nil, limit: nil).filter { $0.kind == .tampered }
        #expect(discarded.count >= 4)
    }

    /// A store from before the sealing (version 2: refresh tokens, cookies and extras bound to
    /// their rows alone, no account seals) is sealed when opened with its key: everything reads
    /// back, and the seals then hold.
    @Test func anOlderStoreIsSealedOnOpenAndTheSealingCannotBeReplayed() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        let fixture = DeckFixture(now: clock.now())
        try makeVersionTwo(loc, fixture)
        let store = try DeckStore.open(loc, clock: clock)
        let read = try store.accounts(includeQuarantined: true)
        #expect(read.count == fixture.accounts.count)
        let byId = Dictionary(uniqueKeysWithValues: read.map { ($0.account.id, $0.credentials) })
        for stored in fixture.accounts {
            #expect(byId[stored.account.id] == stored.credentials, "\(stored.account.id)")
        }
        // Replaying the step to launder an edit: the record removed and the edited row's seal
        // dropped. The store refuses to open rather than seal the edit.
        let queue = try DatabaseQueue(path: loc.databasePath)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM meta WHERE key = 'metadata_sealing'")
            try db.execute(sql: "UPDATE accounts SET provider_id = 'prod', seal = NULL WHERE id = 'work/0000a001'")
        }
        #expect(throws: StoreError.self) { try DeckStore.open(loc, clock: clock) }
        // Even with every seal dropped: the credentials no longer open with the old bindings.
        try queue.write { db in try db.execute(sql: "UPDATE accounts SET seal = NULL") }
        try queue.close()
        #expect(throws: StoreError.self) { try DeckStore.open(loc, clock: clock) }
    }

    /// The attack pass laundered an edit: every refresh token, cookie and extra deleted, every
    /// seal dropped and the record removed, then a username changed — the one-time sealing ran
    /// again and sealed the edit. Access tokens are bound the version-3 way too, so as long as
    /// any secret is left the store refuses to open.
    @Test func theSealingCannotBeReplayedWhileAnyAccessTokenIsLeft() throws {
        let (store, _) = try store(after: """
            DELETE FROM refresh_tokens; DELETE FROM cookies; DELETE FROM extras; UPDATE accounts SET seal = NULL;
            DELETE FROM meta WHERE key = 'metadata_sealing';
            UPDATE accounts SET username = 'jiro@contoso.com' WHERE id = 'work/0000a001';
            """)
        #expect(throws: StoreError.self) { try DeckStore.open(store.location, clock: clock) }
    }

    /// Quarantine decides which accounts an ACCOUNT argument can match: flipping it without the
    /// key is refused; a prune and an undo move the seal along, and never seal an edit.
    @Test func quarantineIsSealedAndPruneAndUndoKeepTheSeal() throws {
        let (edited, _) = try store(after: "UPDATE accounts SET quarantined_at = 1799000000 WHERE id = 'work/0000a001'")
        expectTampered("work/0000a001", edited, "quarantined without the key")
        let (freed, fixture) = try store(after: "SELECT 1")
        let jiro = try #require(fixture.accounts.first { $0.account.id == "work/0000a002" }).account
        let candidate = PruneCandidate(account: jiro, reason: .unused(days: 90, limit: .days(90)))
        _ = try freed.quarantine([candidate], at: clock.now()) { _ in [candidate] }
        let queue = try DatabaseQueue(path: freed.location.databasePath)
        try queue.write { db in try db.execute(sql: "UPDATE accounts SET quarantined_at = NULL WHERE id = ?", arguments: [jiro.id]) }
        expectTampered(jiro.id, freed, "taken out of the quarantine without the key")
        // Through the store: quarantined and restored, and it still opens.
        let (store, _) = try self.store(after: "SELECT 1")
        _ = try store.quarantine([candidate], at: clock.now()) { _ in [candidate] }
        #expect(try store.account(id: candidate.account.id)?.account.quarantinedAt != nil)
        _ = try store.restore(ids: [candidate.account.id])
        #expect(try store.account(id: candidate.account.id)?.account.quarantinedAt == nil)
        // An edited row is not sealed by a prune: it stays refused.
        try queue.close()
        let (tampered, _) = try self.store(after: "UPDATE accounts SET username = 'admin@contoso.com' WHERE id = 'work/0000a002'")
        let victim = PruneCandidate(account: jiro, reason: .unused(days: 90, limit: .days(90)))
        _ = try tampered.quarantine([victim], at: clock.now()) { _ in [victim] }
        _ = try tampered.restore(ids: [victim.account.id])
        expectTampered(victim.account.id, tampered, "pruned and restored after an edit")
    }

    /// A store whose key record was edited (its source changed or its data key row removed) was
    /// given a new data key, which made every sealed value unreadable for good. It is refused.
    @Test(arguments: ["UPDATE meta SET value = 'passphrase' WHERE key = 'key_source'", "DELETE FROM meta WHERE key = 'data_key.file'"])
    func anEditedKeyRecordIsRefusedNotReplaced(edit: String) throws {
        let (store, _) = try store(after: edit)
        let before = try DatabaseQueue(path: store.location.databasePath).read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM meta ORDER BY key").map { "\($0)" }
        }
        #expect(throws: StoreError.self) { try DeckStore.open(store.location, clock: clock) }
        let after = try DatabaseQueue(path: store.location.databasePath).read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM meta ORDER BY key").map { "\($0)" }
        }
        #expect(before == after, "no new data key was written")
    }

    /// Writes the fixture as a version-2 store held it: access tokens with their version-2
    /// binding, refresh tokens, cookies and extras with their version-1 contexts, no seals, no
    /// record of the sealing.
    /// `accessTokensV1`: access tokens bound to their row alone, as version 1 held them.
    func makeVersionTwo(_ loc: StoreLocation, _ fixture: DeckFixture, accessTokensV1: Bool = false) throws {
        let store = try DeckStore.open(loc, clock: clock)
        for stored in fixture.accounts { try store.insert(stored) }
        let box = store.box
        try store.write { db in
            for row in try Row.fetchAll(db, sql: "SELECT t.id, t.account_id, t.sealed_value, t.scopes, t.expires_at, t.requested_scopes, a.provider_id, a.subject FROM access_tokens t JOIN accounts a ON a.id = t.account_id") {
                let plain = try box.open(Array(row[2] as Data), context: SealingContext.accessToken(
                    row[0], account: row[1], scopes: row[3], requested: row[5], expiresAt: row[4], provider: row[6], subject: row[7]))
                let old = accessTokensV1 ? SealingContext.accessTokenV1(row[0])
                    : SealingContext.accessTokenV2(row[0], account: row[1], scopes: row[3], requested: row[5], expiresAt: row[4])
                try db.execute(sql: "UPDATE access_tokens SET sealed_value = ? WHERE id = ?", arguments: [Data(try box.seal(plain, context: old)),
                                                                                                          row[0] as String])
            }
            for row in try Row.fetchAll(db, sql: "SELECT r.account_id, r.id, r.sealed_value, a.provider_id, a.subject FROM refresh_tokens r JOIN accounts a ON a.id = r.account_id") {
                let plain = try box.open(Array(row[2] as Data), context: SealingContext.refreshToken(row[0], row[1], provider: row[3], subject: row[4]))
                try db.execute(sql: "UPDATE refresh_tokens SET sealed_value = ? WHERE account_id = ?",
                               arguments: [Data(try box.seal(plain, context: SealingContext.refreshTokenV1(row[0], row[1]))), row[0] as String])
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, account_id, name, sealed_value, domain, path, expires_at, secure, http_only FROM cookies") {
                let plain = try box.open(Array(row[3] as Data), context: SealingContext.cookie(row[0], account: row[1], name: row[2], domain: row[4], path: row[5],
                                                                                               expiresAt: row[6], secure: row[7], httpOnly: row[8]))
                try db.execute(sql: "UPDATE cookies SET sealed_value = ? WHERE id = ?",
                               arguments: [Data(try box.seal(plain, context: SealingContext.cookieV1(row[0]))), row[0] as String])
            }
            for row in try Row.fetchAll(db, sql: "SELECT e.account_id, e.name, e.sealed_value, a.provider_id, a.subject FROM extras e JOIN accounts a ON a.id = e.account_id") {
                let plain = try box.open(Array(row[2] as Data), context: SealingContext.extra(row[0], row[1], provider: row[3], subject: row[4]))
                try db.execute(sql: "UPDATE extras SET sealed_value = ? WHERE account_id = ? AND name = ?",
                               arguments: [Data(try box.seal(plain, context: SealingContext.extraV1(row[0], row[1]))), row[0] as String, row[1] as String])
            }
            try db.execute(sql: "UPDATE accounts SET seal = NULL")
            try db.execute(sql: "DELETE FROM meta WHERE key = 'metadata_sealing'")
            if accessTokensV1 { try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [DeckStore.accessTokenSealingKey]) }
        }
    }

    /// A store migrated by a newer authdeck (a migration this one does not know) is read, with a
    /// warning, and never written.
    @Test func aNewerStoreIsReadButNeverWritten() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        let fixture = DeckFixture(now: clock.now())
        do {
            let store = try DeckStore.open(loc, clock: clock)
            for stored in fixture.accounts { try store.insert(stored) }
        }
        let queue = try DatabaseQueue(path: loc.databasePath)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('999-from-the-future')") }
        try queue.close()
        let store = try DeckStore.open(loc, clock: clock)
        #expect(store.warnings.contains { $0.contains("upgraded by a newer authdeck") }, "\(store.warnings)")
        #expect(try store.accounts(includeQuarantined: true).count == fixture.accounts.count)
        #expect(throws: StoreError.newerStore(path: loc.databasePath)) { try store.update(fixture.accounts[0].account) }
        #expect(throws: StoreError.newerStore(path: loc.databasePath)) { try store.delete(accountId: fixture.accounts[0].account.id) }
        #expect(throws: StoreError.newerStore(path: loc.databasePath)) {
            try store.commitRenewal(.empty, accountId: fixture.accounts[0].account.id, expected: nil,
                                    event: DeckEvent(at: clock.now(), kind: .refreshed))
        }
        try store.touch(accountId: fixture.accounts[0].account.id, at: clock.now() + .hours(1))
        #expect(try store.account(id: fixture.accounts[0].account.id)?.account.lastUsedAt == fixture.accounts[0].account.lastUsedAt)
    }

    /// A -wal, -shm or -journal beside the store that someone else could have written (another
    /// user's, or readable and writable by others) is refused before SQLite opens it.
    @Test(arguments: ["-wal", "-shm", "-journal"])
    func aForeignSidecarIsRefused(suffix: String) throws {
        let dir = TempDirectory()
        let loc = location(dir)
        _ = try DeckStore.open(loc, clock: clock)
        let sidecar = loc.databasePath + suffix
        if !FileManager.default.fileExists(atPath: sidecar) {
            FileManager.default.createFile(atPath: sidecar, contents: Data())
        }
        chmod(sidecar, 0o666)
        #expect(throws: StoreError.self) { try DeckStore.open(loc, clock: clock) }
        chmod(sidecar, 0o600)
        if geteuid() == 0 {
            // As root (CI): a file of another user, mode 0600.
            chown(sidecar, 65534, 65534)
            do {
                _ = try DeckStore.open(loc, clock: clock)
                Issue.record("a \(suffix) of another user was used")
            } catch let error as StoreError {
                #expect(error.description.contains("belongs to another user"), "\(error)")
            }
        }
    }

    /// The attack pass won the race 25 times in 25: another user watching a shared sticky
    /// directory planted a 0666 `-wal` after the sidecar check and before SQLite opened it (SQLite
    /// creates it without O_EXCL), then read the store's pages and wrote frames into it. Now the
    /// sidecars are claimed with O_EXCL first: a store is either refused or opened with files of
    /// its owner only — never opened beside another user's. Root only (a second user is needed).
    @Test(.enabled(if: geteuid() == 0, "needs root to act as a second user"))
    func anotherUserRacingToPlantTheWriteAheadLogNeverGetsItUsed() throws {
        let shared = "/tmp/authdeck-race-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(shared, 0o1777)
        chmod(shared, 0o1777)
        defer { _ = try? FileManager.default.removeItem(atPath: shared) }
        let loc = StoreLocation(databasePath: shared + "/victim.db", keyFilePath: home.file("race-key"))
        // The other user plants each missing sidecar, keeps it open, and at the end says how many
        // bytes the store wrote into the files it planted (SQLite run by root even chowns them
        // back, so ownership after the fact proves nothing; the attacker's descriptor does).
        let attacker = Process()
        let out = Pipe()
        attacker.standardOutput = out
        attacker.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        attacker.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", """
            import os, time
            held = []
            end = time.time() + 60
            while time.time() < end and not os.path.exists("\(shared)/stop"):
                for s in ("-wal", "-shm"):
                    try:
                        fd = os.open("\(loc.databasePath)" + s, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o666)
                        os.fchmod(fd, 0o666); held.append(fd)
                    except OSError:
                        pass
            print(len(held), sum(os.fstat(fd).st_size for fd in held), flush=True)
            """]
        try attacker.run()
        defer { if attacker.isRunning { kill(attacker.processIdentifier, SIGKILL) }; attacker.waitUntilExit() }
        var opened = 0, refused = 0
        for round in 0..<30 {
            do {
                let store = try DeckStore.open(loc, clock: clock)
                try store.append(DeckEvent(at: clock.now(), kind: .other, detail: "round \(round)"))
                opened += 1
            } catch {
                refused += 1
                // The owner clears the planted files (root may, in a sticky directory) and goes on.
                for suffix in ["-wal", "-shm"] { unlink(loc.databasePath + suffix) }
            }
        }
        FileManager.default.createFile(atPath: shared + "/stop", contents: Data())
        let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
        let planted = Int(report.first ?? "") ?? -1, written = Int(report.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
        #expect(planted > 0, "the other user planted files (\(report))")
        #expect(written == 0, "the store wrote \(written) bytes into files another user planted and holds open")
        #expect(opened + refused == 30)
        print("sidecar race: \(planted) files planted by another user, \(written) bytes written into them; \(opened) opened, \(refused) refused")
    }

    /// The attack pass blocked every renewal for good with one row: a lease held by a live pid
    /// (1, init) until the year 2286; `token` waited 60 s and said "another authdeck process is
    /// still renewing" on every call. A lease longer than any authdeck grants is taken over.
    @Test func aForgedEverlastingLeaseDoesNotBlockRenewals() throws {
        let (store, _) = try store(after: "INSERT INTO leases (account_id, holder, expires_at) VALUES ('work/0000a001', '1@' || 'x', 9999999999)")
        try store.write { db in try db.execute(sql: "UPDATE leases SET holder = ?", arguments: ["1@" + DeckStore.hostName + "/forged"]) }
        let now = clock.now()
        #expect(try store.acquireRenewalLease(accountId: "work/0000a001", holder: DeckStore.leaseHolder, until: now + .seconds(90), now: now))
        // A live holder's honest lease still excludes others.
        #expect(try !store.acquireRenewalLease(accountId: "work/0000a001", holder: "\(getppid())@\(DeckStore.hostName)",
                                               until: now + .seconds(90), now: now))
    }

    /// An empty store file beside an existing key file is not a new store: nothing is created.
    @Test func anEmptyStoreBesideItsKeyIsNotANewStore() throws {
        let dir = TempDirectory()
        let loc = location(dir)
        _ = try DeckStore.open(loc, clock: clock)
        let key = FileManager.default.contents(atPath: loc.keyFilePath)
        for suffix in ["-wal", "-shm"] { unlink(loc.databasePath + suffix) }
        truncate(loc.databasePath, 0)
        do {
            _ = try DeckStore.open(loc, clock: clock)
            Issue.record("an empty store beside its key was opened as a new store")
        } catch let error as StoreError {
            #expect(error.description.contains("empty (0 bytes)") && error.description.contains(loc.keyFilePath), "\(error)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: loc.databasePath)[.size] as? Int) ?? -1
        #expect(size == 0, "nothing was written")
        #expect(FileManager.default.contents(atPath: loc.keyFilePath) == key)
    }
}
