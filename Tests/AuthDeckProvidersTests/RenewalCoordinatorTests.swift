import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckProviders
import AuthDeckTestSupport
import AuthDeckPlatform
import GRDB

/// Single-flight renewal over a real store: what is committed, what a failure records, and
/// that concurrent renewals spend a refresh token once.
@Suite struct RenewalCoordinatorTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()

    /// An adapter that answers renewals from a script and counts them.
    final class ScriptedAdapter: ProviderAdapter, @unchecked Sendable {
        let profile = ProviderProfile(id: "work", kind: .oidc)
        var capabilities: ProviderCapabilities { .of(profile) }
        private let lock = NSLock()
        private var outcome: (StoredAccount, RotationHearing?) throws -> Credentials
        private(set) var calls = 0
        let delay: UInt64

        init(delay: UInt64 = 0, _ outcome: @escaping (StoredAccount) throws -> Credentials) {
            self.delay = delay
            self.outcome = { stored, _ in try outcome(stored) }
        }

        /// An adapter whose script is handed the renewal's hearing, as a token endpoint is.
        init(hearing outcome: @escaping (StoredAccount, RotationHearing?) throws -> Credentials) {
            self.delay = 0
            self.outcome = outcome
        }

        func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
            throw AuthFailure(.misconfigured, code: "unused", remedy: "unused")
        }

        func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials {
            lock.withLock { calls += 1 }
            if delay > 0 { try await Task.sleep(nanoseconds: delay) }
            return try outcome(stored, hearing)
        }

        func revoke(_ stored: StoredAccount) async throws {}
    }

    func setUp() throws -> (DeckStore, StoredAccount, RenewalCoordinator) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let expired = DeckFixture(now: clock.now()).accounts[2]  // expired, holds a refresh token
        try store.insert(expired)
        return (store, expired, RenewalCoordinator(store: store, clock: clock, holder: DeckStore.leaseHolder, skew: .seconds(60)))
    }

    func fresh(_ value: String, refresh: String?) -> Credentials {
        Credentials(accessTokens: [AccessToken(id: UUID().uuidString, value: Secret(value), scopes: ["openid", "User.Read"],
                                               obtainedAt: clock.now(), expiresAt: clock.now() + .hours(1))],
                    refreshToken: refresh.map { RefreshToken(id: UUID().uuidString, value: Secret($0), generation: 1, obtainedAt: clock.now()) })
    }

    @Test func aRenewalCommitsTheRotatedTokenWithTheNextGeneration() async throws {
        let (store, account, renewer) = try setUp()
        let adapter = ScriptedAdapter { _ in self.fresh("new-at", refresh: "new-rt") }
        let got = try await renewer.renew(account.account.id, with: adapter)
        let saved = try #require(try store.account(id: account.account.id))
        #expect(saved.credentials == got.credentials)
        #expect(saved.credentials.refreshToken?.value == Secret("new-rt"))
        #expect(saved.credentials.refreshToken?.generation == account.credentials.refreshToken!.generation + 1)
        #expect(saved.credentials.usableAccessToken(for: [], at: clock.now(), skew: .seconds(60))?.value == Secret("new-at"))
        // The server did not rotate this time: the refresh token stays as it was.
        let again = ScriptedAdapter { _ in self.fresh("newer-at", refresh: nil) }
        _ = try await renewer.renew(account.account.id, with: again, force: true)
        #expect(try store.account(id: account.account.id)?.credentials.refreshToken == saved.credentials.refreshToken)
    }

    /// Attack 2: a commit that fails after the provider has spent a one-use refresh token (a
    /// full disk) lost the account while saying "nothing was changed". The new tokens are kept
    /// sealed in the space reserved before the token was spent, and the next opening commits them.
    @Test func aCommitFailingAfterTheRefreshTokenWasSpentKeepsTheNewTokensForTheNextCommand() async throws {
        let (store, account, renewer) = try setUp()
        let adapter = ScriptedAdapter { _ in
            // The server has rotated the token; now the store cannot be written (as on a full disk).
            try store.write { db in
                try db.execute(sql: "CREATE TRIGGER full BEFORE INSERT ON refresh_tokens BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END")
            }
            return self.fresh("rescued-at", refresh: "rescued-rt")
        }
        do {
            _ = try await renewer.renew(account.account.id, with: adapter)
            Issue.record("the failed commit must be reported")
        } catch let failure as AuthFailure {
            #expect(failure.code == "rescued", "\(failure)")
            #expect(!failure.remedy.contains("nothing was changed"), "a grant was spent: \(failure.remedy)")
            #expect(failure.remedy.contains(".rescue-"), "\(failure.remedy)")
        }
        #expect(try store.account(id: account.account.id)?.credentials.refreshToken == account.credentials.refreshToken)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".rescue-") }
        #expect(files.count == 1)
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: dir.file(file)))
            #expect(bytes.range(of: Data("rescued-rt".utf8)) == nil, "sealed, not in clear")
            #expect(((try FileManager.default.attributesOfItem(atPath: dir.file(file))[.posixPermissions]) as? Int) == 0o600)
        }
        try store.write { db in try db.execute(sql: "DROP TRIGGER full") }
        // The next command opens the store and commits what was kept.
        let next = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let saved = try #require(try next.account(id: account.account.id))
        #expect(saved.credentials.refreshToken?.value == Secret("rescued-rt"))
        #expect(saved.credentials.refreshToken?.generation == account.credentials.refreshToken!.generation + 1)
        #expect(saved.credentials.usableAccessToken(for: [], at: clock.now(), skew: .seconds(60))?.value == Secret("rescued-at"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".rescue-") }.isEmpty)
    }

    /// Attack 3: a process killed (kill -9, the OOM killer) after a strict provider answered and
    /// before the commit lost the account: the old refresh token spent, the new one only in
    /// memory. The store's files are copied at the instant the commit begins (a trigger on the
    /// commit's first insert) — what a process killed there leaves — and a store opened on the
    /// copy must hold the rotated token. Without the write-ahead the copy holds the spent one.
    @Test func aProcessKilledAtItsCommitLeavesTheRotatedTokenForTheNextCommand() async throws {
        let (store, account, renewer) = try setUp()
        let killed = TempDirectory()
        try copyStore(into: killed)
        let gonePid = try Self.pidOfAnEndedProcess()
        let source = dir.path, target = killed.path
        try store.write { db in
            db.add(function: DatabaseFunction("killed_here", argumentCount: 0, pure: false) { _ in
                try Self.copyRescues(from: source, into: target, asPid: gonePid)
                return nil
            })
            try db.execute(sql: "CREATE TEMP TRIGGER killed BEFORE INSERT ON refresh_tokens BEGIN SELECT killed_here(); END")
        }
        let adapter = ScriptedAdapter { _ in self.fresh("after-kill-at", refresh: "after-kill-rt") }
        _ = try await renewer.renew(account.account.id, with: adapter)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".rescue-") }.isEmpty,
                "the process that committed removes its own file")
        let copies = try FileManager.default.contentsOfDirectory(atPath: killed.path).filter { $0.contains(".rescue-") }
        #expect(copies.count == 1)
        for file in copies {
            let bytes = try #require(FileManager.default.contents(atPath: killed.file(file)))
            #expect(bytes.range(of: Data("after-kill-rt".utf8)) == nil, "sealed, not in clear")
        }
        let next = try DeckStore.open(StoreLocation(databasePath: killed.file("s.db"), keyFilePath: killed.file("k")), clock: clock)
        let saved = try #require(try next.account(id: account.account.id))
        #expect(saved.credentials.refreshToken?.value == Secret("after-kill-rt"))
        #expect(saved.credentials.refreshToken?.generation == account.credentials.refreshToken!.generation + 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: killed.path).filter { $0.contains(".rescue-") }.isEmpty)
    }

    /// Attack 1: killed after a strict provider's answer was read but before it was checked and
    /// written ahead (an id_token's signature takes milliseconds), the account was lost. The
    /// token endpoint tells the renewal of the new refresh token as the answer parses
    /// (`RotationHearing`); the files as a kill right after that leaves them hold it.
    @Test func aProcessKilledAsTheAnswerIsReadLeavesTheNewRefreshToken() async throws {
        let (_, account, renewer) = try setUp()
        let killed = TempDirectory()
        try copyStore(into: killed)
        let gonePid = try Self.pidOfAnEndedProcess()
        let source = dir.path, target = killed.path
        let adapter = ScriptedAdapter(hearing: { _, hearing in
            // As TokenEndpoint does once the answer parses.
            try #require(hearing, "a renewal of an account with a refresh token listens").tell(Secret("answered-rt"))
            try Self.copyRescues(from: source, into: target, asPid: gonePid)
            return self.fresh("answered-at", refresh: "answered-rt")
        })
        _ = try await renewer.renew(account.account.id, with: adapter)
        let next = try DeckStore.open(StoreLocation(databasePath: killed.file("s.db"), keyFilePath: killed.file("k")), clock: clock)
        let saved = try #require(try next.account(id: account.account.id))
        #expect(saved.credentials.refreshToken?.value == Secret("answered-rt"))
        #expect(saved.credentials.refreshToken?.generation == account.credentials.refreshToken!.generation + 1)
        #expect(saved.credentials.accessTokens == account.credentials.accessTokens, "only the refresh token was known then")
    }

    /// A long-running process (the deck, `watch`, `refresh --all`) that opened the store before
    /// another process was killed mid-renewal: it renewed from the refresh token that process had
    /// already spent. It now takes the left rescue file first and renews from the token in it.
    @Test func aRenewalInALongRunningProcessStartsFromATokenAKilledOneLeft() async throws {
        let (store, account, renewer) = try setUp()
        let left = RenewalRescue(path: dir.file("s.db.rescue-\(try Self.pidOfAnEndedProcess())-4"))
        #expect(FileManager.default.createFile(atPath: left.path, contents: nil, attributes: [.posixPermissions: 0o600]))
        var rotated = account.credentials
        rotated.refreshToken = RefreshToken(id: "left", value: Secret("left-rt"), generation: rotated.refreshToken!.generation + 1, obtainedAt: clock.now())
        try store.keepInRescue(left, credentials: rotated, accountId: account.account.id, expected: account.credentials.refreshToken?.stamp,
                               event: DeckEvent(at: clock.now(), kind: .refreshed, accountId: account.account.id), durable: false)
        let adapter = ScriptedAdapter { stored in
            #expect(stored.credentials.refreshToken?.value == Secret("left-rt"), "renewed from the token the killed process left")
            return self.fresh("next-at", refresh: "next-rt")
        }
        let got = try await renewer.renew(account.account.id, with: adapter, force: true)
        #expect(got.credentials.refreshToken?.value == Secret("next-rt"))
        #expect(got.credentials.refreshToken?.generation == account.credentials.refreshToken!.generation + 2)
        #expect(!FileManager.default.fileExists(atPath: left.path))
    }

    /// Commands opening the store at once each found the same left rescue file and committed it:
    /// one won and the others wrote a false "not applied" event. The file is claimed first now.
    @Test func commandsOpeningTheStoreAtOnceCommitALeftFileOnce() async throws {
        let (store, account, _) = try setUp()
        let gone = try Self.pidOfAnEndedProcess()
        for round in 0..<15 {
            let current = try #require(try store.account(id: account.account.id))
            let left = RenewalRescue(path: dir.file("s.db.rescue-\(gone)-\(round)"))
            #expect(FileManager.default.createFile(atPath: left.path, contents: nil, attributes: [.posixPermissions: 0o600]))
            var rotated = current.credentials
            rotated.refreshToken = RefreshToken(id: "r\(round)", value: Secret("rt-\(round)"), generation: rotated.refreshToken!.generation + 1,
                                                obtainedAt: clock.now())
            try store.keepInRescue(left, credentials: rotated, accountId: account.account.id, expected: current.credentials.refreshToken?.stamp,
                                   event: DeckEvent(at: clock.now(), kind: .refreshed, accountId: account.account.id), durable: false)
            let location = StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { _ = try DeckStore.open(location, clock: self.clock) } }
                try await group.waitForAll()
            }
            #expect(try store.account(id: account.account.id)?.credentials.refreshToken?.value == Secret("rt-\(round)"))
        }
        let events = try store.events(since: nil, accountId: account.account.id, limit: nil)
        #expect(!events.contains { $0.detail.contains("was not applied") }, "\(events.map(\.detail))")
        #expect(events.filter { $0.detail.contains("its renewal's commit did not finish") }.count == 15)
    }

    /// A renewal stopped past its lease while another process renewed the account: its token
    /// was refused as already used, and it recorded "sign in again" on a healthy account. It
    /// now says another process renewed it, and records nothing.
    @Test func aRefusalOfATokenAnotherProcessReplacedMeanwhileIsNoFailure() async throws {
        let (store, account, renewer) = try setUp()
        let adapter = ScriptedAdapter { stored in
            var renewedElsewhere = stored.credentials
            renewedElsewhere.refreshToken = RefreshToken(id: "elsewhere", value: Secret("elsewhere-rt"),
                                                         generation: stored.credentials.refreshToken!.generation + 1, obtainedAt: self.clock.now())
            try store.replaceCredentials(renewedElsewhere, accountId: stored.account.id)
            throw AuthFailure(.needsInteraction, code: "invalid_grant", remedy: "the refresh token was already used")
        }
        do {
            _ = try await renewer.renew(account.account.id, with: adapter)
            Issue.record("the refusal must be reported")
        } catch let failure as AuthFailure {
            #expect(failure.errorClass == .transient && failure.code == "conflict", "\(failure)")
        }
        let after = try #require(try store.account(id: account.account.id))
        #expect(after.account.lastError == nil)
        #expect(after.credentials.refreshToken?.value == Secret("elsewhere-rt"))
    }

    /// An answer whose new refresh token was heard and which then failed (its id_token's keys
    /// not fetched, say): the provider has spent the old token, so the new one is kept and the
    /// failure recorded — dropped with the answer, a one-use provider's account was lost. A
    /// provider that answered without rotating changes nothing.
    @Test func anAnswerHeardThenFailingKeepsTheNewRefreshToken() async throws {
        let (store, account, renewer) = try setUp()
        let adapter = ScriptedAdapter(hearing: { _, hearing in
            try #require(hearing).tell(Secret("heard-rt"))
            throw AuthFailure(.transient, code: "network", remedy: "the provider's keys could not be fetched")
        })
        await #expect(throws: AuthFailure.self) { try await renewer.renew(account.account.id, with: adapter) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".rescue-") }.isEmpty)
        let after = try #require(try store.account(id: account.account.id))
        #expect(after.credentials.refreshToken?.value == Secret("heard-rt"))
        #expect(after.credentials.refreshToken?.generation == account.credentials.refreshToken!.generation + 1)
        #expect(after.credentials.accessTokens == account.credentials.accessTokens)
        #expect(try store.events(since: nil, accountId: account.account.id, limit: nil).last?.kind == .refreshFailed)
        // Heard, then refused (an id_token for another subject): the refusal is reported as it
        // is, not as "renewed by another process" (keeping the heard token changed the account).
        let refusing = ScriptedAdapter(hearing: { _, hearing in
            try #require(hearing).tell(Secret("heard-rt-2"))
            throw AuthFailure(.needsInteraction, code: "invalid_id_token", remedy: "the id_token names another subject")
        })
        do {
            _ = try await renewer.renew(account.account.id, with: refusing, force: true)
            Issue.record("the refusal must be reported")
        } catch let failure as AuthFailure {
            #expect(failure.code == "invalid_id_token", "\(failure)")
        }
        #expect(try store.account(id: account.account.id)?.credentials.refreshToken?.value == Secret("heard-rt-2"))
        let after2 = try #require(try store.account(id: account.account.id))
        let quiet = ScriptedAdapter { _ in throw AuthFailure(.transient, code: "http 503", remedy: "down") }
        await #expect(throws: AuthFailure.self) { try await renewer.renew(account.account.id, with: quiet, force: true) }
        #expect(try store.account(id: account.account.id)?.credentials == after2.credentials)
    }

    /// A result written ahead whose commit went through before the process ended (killed between
    /// the commit and the file's removal) is removed without a word: no "not applied" event.
    @Test func aResultWrittenAheadOfACommitThatWentThroughIsDroppedQuietly() async throws {
        let (store, account, renewer) = try setUp()
        let adapter = ScriptedAdapter { _ in self.fresh("at", refresh: "rt-2") }
        let renewed = try await renewer.renew(account.account.id, with: adapter)
        let gonePid = try Self.pidOfAnEndedProcess()
        let rescue = RenewalRescue(path: dir.file("s.db.rescue-\(gonePid)-1"))
        #expect(FileManager.default.createFile(atPath: rescue.path, contents: nil, attributes: [.posixPermissions: 0o600]))
        let event = DeckEvent(at: clock.now(), kind: .refreshed, accountId: account.account.id, detail: "renewed")
        try store.keepInRescue(rescue, credentials: renewed.credentials, accountId: account.account.id,
                               expected: account.credentials.refreshToken?.stamp, event: event, durable: false)
        let eventsBefore = try store.events(since: nil, accountId: account.account.id, limit: nil).count
        let next = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        #expect(try next.account(id: account.account.id) == renewed)
        #expect(try next.events(since: nil, accountId: account.account.id, limit: nil).count == eventsBefore)
        #expect(!FileManager.default.fileExists(atPath: rescue.path))
    }

    /// A result written ahead by a process still running is its own to commit: another process
    /// opening the store leaves it alone, however long ago it was written (a renewal stopped
    /// with Ctrl-Z for eleven minutes lost its file to the next command).
    @Test func aResultWrittenAheadByARunningProcessIsLeftToIt() throws {
        let (store, account, _) = try setUp()
        let rescue = try store.reserveRenewalRescue(accountId: account.account.id)  // this process: pid and start time
        let event = DeckEvent(at: clock.now(), kind: .refreshed, accountId: account.account.id, detail: "renewed")
        var credentials = account.credentials
        credentials.refreshToken = RefreshToken(id: "r2", value: Secret("in-flight-rt"), generation: 99, obtainedAt: clock.now())
        try store.keepInRescue(rescue, credentials: credentials, accountId: account.account.id,
                               expected: account.credentials.refreshToken?.stamp, event: event, durable: false)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -660)], ofItemAtPath: rescue.path)
        let next = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        #expect(try next.account(id: account.account.id)?.credentials.refreshToken == account.credentials.refreshToken)
        #expect(FileManager.default.fileExists(atPath: rescue.path))
        // The same pid with another start time is a later process that got the pid: gone.
        let me = ProcessIdentity.current
        let reused = dir.file("s.db.rescue-\(ProcessIdentity(pid: me.pid, startTicks: (me.startTicks ?? 0) + 1).text)-2")
        try FileManager.default.moveItem(atPath: rescue.path, toPath: reused)
        let after = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        #expect(try after.account(id: account.account.id)?.credentials.refreshToken?.value == Secret("in-flight-rt"))
        #expect(!FileManager.default.fileExists(atPath: reused))
    }

    /// Attack 4: a renewal written ahead, then the account signed out and in again (its refresh
    /// token generation back at the same number), then the renewal's process killed: the next
    /// opening put the signed-out grant back over the new sign-in. It is not applied now.
    @Test func aResultWrittenAheadBeforeASignOutAndSignInIsNotApplied() throws {
        let (store, account, _) = try setUp()
        let rescue = RenewalRescue(path: dir.file("s.db.rescue-\(try Self.pidOfAnEndedProcess())-3"))
        #expect(FileManager.default.createFile(atPath: rescue.path, contents: nil, attributes: [.posixPermissions: 0o600]))
        var rotated = account.credentials
        rotated.refreshToken = RefreshToken(id: "old-grant-2", value: Secret("old-grant-rt"), generation: rotated.refreshToken!.generation + 1,
                                            obtainedAt: clock.now())
        try store.keepInRescue(rescue, credentials: rotated, accountId: account.account.id, expected: account.credentials.refreshToken?.stamp,
                               event: DeckEvent(at: clock.now(), kind: .refreshed, accountId: account.account.id), durable: false)
        var signedIn = account.credentials
        signedIn.refreshToken = RefreshToken(id: "new-grant-1", value: Secret("new-grant-rt"), generation: account.credentials.refreshToken!.generation,
                                             obtainedAt: clock.now())
        try store.replaceCredentials(signedIn, accountId: account.account.id)
        let next = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        #expect(try next.account(id: account.account.id)?.credentials.refreshToken?.value == Secret("new-grant-rt"))
        #expect(!FileManager.default.fileExists(atPath: rescue.path))
        #expect(try next.events(since: nil, accountId: account.account.id, limit: nil).last?.detail.contains("was not applied") == true)
    }

    /// Attack 5: a file named like a rescue file with lengths that do not fit (negative, huge)
    /// stopped every command with a crash. It is named in a warning and left in place.
    @Test func aCraftedRescueFileIsRefusedWithoutACrash() throws {
        _ = try setUp()
        let gone = try Self.pidOfAnEndedProcess()
        let crafted = [("s.db.rescue-1-a", Array("ADRESCU1".utf8) + [0, 0, 0, 0] + Array("-5\nxxxxxxxxxxxx".utf8)),
                       ("s.db.rescue-\(gone)-b", Array("ADRESCA1".utf8) + [0, 0, 0, 9] + Array("9223372036854775807\nxyz".utf8)),
                       ("s.db.rescue-\(gone)-c", Array("ADRESCA1".utf8) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("3\nabc".utf8))]
        for (name, bytes) in crafted {
            #expect(FileManager.default.createFile(atPath: dir.file(name), contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
        }
        // Junk without a magic (deleted as if a reservation) and a directory by such a name
        // (warned about as tokens to keep): refused alike.
        #expect(FileManager.default.createFile(atPath: dir.file("s.db.rescue-\(gone)-d"), contents: Data(repeating: 0x41, count: 64),
                                               attributes: [.posixPermissions: 0o600]))
        try FileManager.default.createDirectory(atPath: dir.file("s.db.rescue-\(gone)-e"), withIntermediateDirectories: false)
        let next = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        for name in crafted.map(\.0) + ["s.db.rescue-\(gone)-d", "s.db.rescue-\(gone)-e"] {
            #expect(FileManager.default.fileExists(atPath: dir.file(name)), "left in place")
            #expect(next.warnings.contains { $0.contains(name) && $0.contains("not a rescue file authdeck can use") }, "\(next.warnings)")
        }
        #expect(!next.warnings.contains { $0.contains("do not delete") })
    }

    /// The store as it stands (its file, write-ahead log and key), copied into `killed`: what a
    /// process killed now leaves of it, before the renewal under test writes anything.
    func copyStore(into killed: TempDirectory) throws {
        for name in ["s.db", "s.db-wal", "k"] where FileManager.default.fileExists(atPath: dir.file(name)) {
            try FileManager.default.copyItem(atPath: dir.file(name), toPath: killed.file(name))
        }
    }

    /// The rescue files in `source` as they are now, copied into `target` under the name of the
    /// process `pid` (one that has ended: the renewal's process is gone in the copy).
    static func copyRescues(from source: String, into target: String, asPid pid: Int32) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.hasPrefix("s.db.rescue-") {
            let random = name.split(separator: "-").last.map(String.init) ?? "0"
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target + "/s.db.rescue-\(pid)-\(random)")
        }
    }

    /// The pid of a process that has ended (and been reaped).
    static func pidOfAnEndedProcess() throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    /// A reservation left by a process killed mid-renewal is removed by the next opening; one
    /// whose process still runs (a renewal in flight) is left alone.
    @Test func aReservationOfAKilledProcessIsRemovedAndOneInFlightKept() throws {
        _ = try setUp()
        let dead = dir.file("s.db.rescue-\(try Self.pidOfAnEndedProcess())-0")
        let live = dir.file("s.db.rescue-\(getpid())-0")
        for file in [dead, live] {
            #expect(FileManager.default.createFile(atPath: file, contents: Data(count: 256 << 10), attributes: [.posixPermissions: 0o600]))
            chmod(file, 0o600)
        }
        _ = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    @Test func aTransientFailureChangesNothingButTheAuditTrail() async throws {
        let (store, account, renewer) = try setUp()
        let adapter = ScriptedAdapter { _ in throw AuthFailure(.transient, code: "http 503", remedy: "down") }
        await #expect(throws: AuthFailure.self) { try await renewer.renew(account.account.id, with: adapter) }
        let after = try #require(try store.account(id: account.account.id))
        #expect(after == account)
        #expect(try store.events(since: nil, accountId: account.account.id, limit: nil).last?.kind == .refreshFailed)
    }

    @Test func aRejectedRenewalIsRecordedAndKeepsEveryCredential() async throws {
        let (store, account, renewer) = try setUp()
        let adapter = ScriptedAdapter { _ in throw AuthFailure(.needsInteraction, code: "invalid_grant", remedy: "sign in again") }
        await #expect(throws: AuthFailure.self) { try await renewer.renew(account.account.id, with: adapter) }
        let after = try #require(try store.account(id: account.account.id))
        #expect(after.credentials == account.credentials)
        #expect(after.account.lastError?.code == "invalid_grant" && after.account.failedAttempts == 1)
        #expect(AccountState.derive(after, policy: .standard, now: clock.now()) == .needsSignIn(reason: "sign in again"))
        // A later success clears the error.
        _ = try await renewer.renew(account.account.id, with: ScriptedAdapter { _ in self.fresh("at", refresh: "rt2") })
        #expect(try store.account(id: account.account.id)?.account.lastError == nil)
    }

    @Test func concurrentRenewalsOfOneAccountCallTheProviderOnce() async throws {
        let (store, account, renewer) = try setUp()
        let adapter = ScriptedAdapter(delay: 200_000_000) { _ in self.fresh("at", refresh: "rt-next") }
        try await withThrowingTaskGroup(of: StoredAccount.self) { group in
            for _ in 0..<4 { group.addTask { try await renewer.renew(account.account.id, with: adapter) } }
            for try await got in group { #expect(got.credentials.refreshToken?.value == Secret("rt-next")) }
        }
        #expect(adapter.calls == 1)
        #expect(try store.account(id: account.account.id)?.credentials.refreshToken?.generation == account.credentials.refreshToken!.generation + 1)
    }

    @Test func aValidTokenNeedsNoRenewalUnlessForced() async throws {
        let (store, _, renewer) = try setUp()
        let valid = DeckFixture(now: clock.now()).accounts[0]
        try store.insert(valid)
        let adapter = ScriptedAdapter { _ in self.fresh("at", refresh: "rt") }
        _ = try await renewer.renew(valid.account.id, with: adapter)
        #expect(adapter.calls == 0)
        _ = try await renewer.renew(valid.account.id, with: adapter, force: true)
        #expect(adapter.calls == 1)
    }
}
