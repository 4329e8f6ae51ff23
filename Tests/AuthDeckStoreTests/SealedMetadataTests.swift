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

    func location(_ dir: TempDirectory) -> StoreLocation {
        StoreLocation(databasePath: dir.file("data/authdeck.db"), keyFilePath: dir.file("data/key"))
    }

    /// A store with the fixture's accounts, and `sql` run on its file through a connection of
    /// its own (no key).
    func store(after sql: String) throws -> (DeckStore, DeckFixture) {
        let dir = TempDirectory()
        let store = try DeckStore.open(location(dir), clock: clock)
        let fixture = DeckFixture(now: clock.now())
        for stored in fixture.accounts { try store.insert(stored) }
        let queue = try DatabaseQueue(path: location(dir).databasePath)
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

    /// Writes the fixture as a version-2 store held it: refresh tokens, cookies and extras
    /// sealed with their version-1 contexts, no seals, no record of the sealing.
    func makeVersionTwo(_ loc: StoreLocation, _ fixture: DeckFixture) throws {
        let store = try DeckStore.open(loc, clock: clock)
        for stored in fixture.accounts { try store.insert(stored) }
        let box = store.box
        try store.write { db in
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
            try store.commitRenewal(.empty, accountId: fixture.accounts[0].account.id, expectedGeneration: nil,
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
