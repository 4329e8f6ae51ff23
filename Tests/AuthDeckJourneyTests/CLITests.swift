import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform
#if canImport(Glibc)
import Glibc
#endif

/// The real `authdeck` binary against a seeded store in temporary XDG directories.
@Suite struct CLITests {
    let dir = TempDirectory("authdeck-cli")
    let fixture: DeckFixture
    let runner: BinaryRunner
    var storePath: String { dir.file("data/authdeck/authdeck.db") }
    var keyPath: String { dir.file("data/authdeck/key") }
    var configPath: String { dir.file("config/authdeck/config.toml") }

    /// Seeds the fixture accounts (relative to the real clock, as the binary uses it).
    init() throws {
        let env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"),
                   "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        runner = BinaryRunner(product: "authdeck", environment: env)
        fixture = DeckFixture(now: SystemClock().now())
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: env), clock: SystemClock())
        for stored in fixture.accounts { try store.insert(stored) }
        try FileManager.default.createDirectory(atPath: dir.file("config/authdeck"), withIntermediateDirectories: true)
        try DeckFixture.configTOML.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    func run(_ args: String...) throws -> BinaryRunner.Result { try runner.run(args) }

    /// `providers` before the first sign-in with AUTHDECK_STORE already set (the new-user
    /// trial): the providers are listed, the missing store is said, and nothing is created.
    @Test func providersListsWithAStoreNotCreatedYet() throws {
        let path = dir.file("later/authdeck.db")
        let r = try runner.run(["providers"], env: ["AUTHDECK_STORE": path])
        #expect(r.status == 0 && r.stdout.contains("work") && r.stderr.contains("no store at \(path) yet"), "\(r.stdout) \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("later")))
    }

    /// `events --account` with a word that names no account and no event is a typo (exit 2),
    /// not an empty history; a signed-out account's full id still shows its events.
    @Test func eventsForANameThatMatchesNothingIsAnError() throws {
        let typo = try run("events", "--account", "nosuch")
        #expect(typo.status == 2 && typo.stderr.contains("no account and no event matches \"nosuch\""), "\(typo.stderr)")
        let id = try #require(fixture.accounts.first?.account.id)
        #expect(try run("logout", id, "--local").status == 0)
        let gone = try run("events", "--account", id)
        #expect(gone.status == 0 && gone.stdout.contains("signed out"), "\(gone.stdout) \(gone.stderr)")
    }

    /// An account that holds no refresh token is named once, and the command once: it read
    /// "oidc/573b50cf: oidc/573b50cf holds no refresh token; …" (issue 31, item 15). Its
    /// event reads as a sentence, not `needsInteraction no_refresh_token: …`.
    @Test func noRefreshTokenIsSaidOnce() throws {
        let now = SystemClock().now()
        let id = "work/0000beef"
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        try store.insert(StoredAccount(
            account: Account(id: id, providerId: "work", subject: "s-beef", username: "beef@example.jp", createdAt: now - .hours(2),
                             lastSignInAt: now - .hours(2)),
            credentials: Credentials(accessTokens: [AccessToken(id: "at-beef", value: Secret("at-beef"), scopes: ["openid"],
                                                                obtainedAt: now - .hours(2), expiresAt: now - .hours(1))])))
        let r = try run("refresh", id)
        #expect(r.status == 3)
        #expect(r.stderr == "authdeck: \(id): it holds no refresh token; sign in again: `authdeck login work` [no_refresh_token]\n", "\(r.stderr)")
        let events = try run("events", "--account", id).stdout
        #expect(events.contains("renewal failed: it holds no refresh token; sign in again: `authdeck login work` (no_refresh_token)"), "\(events)")
        #expect(!events.contains("needsInteraction"))
        // An OIDC account says so without the network (its issuer is down here): not a
        // connection error, exit 3.
        try store.insert(StoredAccount(
            account: Account(id: "gl/0000beef", providerId: "gl", subject: "s-beef", username: "beef@example.jp", createdAt: now - .hours(2),
                             lastSignInAt: now - .hours(2)),
            credentials: Credentials(accessTokens: [AccessToken(id: "at-beef2", value: Secret("at-beef2"), scopes: ["openid"],
                                                                obtainedAt: now - .hours(2), expiresAt: now - .hours(1))])))
        let oidc = try run("refresh", "gl/0000beef")
        #expect(oidc.status == 3 && oidc.stderr.contains("gl/0000beef: it holds no refresh token"), "\(oidc.stderr)")
    }

    func jsonArray(_ text: String) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    /// Attack 5: a dangling symlink at the store path made the store at the link's target
    /// (mode 0644); a FIFO hung forever; a device left a 0666 journal beside it; a `file:`
    /// name was taken as an SQLite URI. Only a regular file (or a new path) is used.
    /// Output that cannot be written is a failure that says so: a full disk made `accounts
    /// --json` exit 0 with nothing written, and `status`, `providers --json` and `token` crash
    /// ("crashed (a bug…)", status 132). A reader that went away ends it as SIGPIPE would.
    @Test(arguments: [["accounts", "--json"], ["accounts"], ["status"], ["providers", "--json"], ["token", "work/0000a001"]])
    func aFullDiskOnStandardOutputIsAnErrorNotSuccessOrACrash(_ args: [String]) throws {
        var shell = BinaryRunner(executable: "/bin/sh", environment: runner.environment)
        shell.environment["AUTHDECK"] = runner.executable
        let full = try shell.run(["-c", "\"$AUTHDECK\" \"$@\" > /dev/full", "sh"] + args)
        #expect(full.status == 1, "\(args): \(full.status) \(full.stderr)")
        #expect(full.stderr.contains("authdeck: cannot write to standard output: No space left on device"), "\(args): \(full.stderr)")
        #expect(!full.stderr.contains("crashed"))
        // The reader is gone before the first write: a pipe whose read end is already closed
        // (it was `sleep 0.3 … | true`, a race with the reader's exit): EPIPE every time.
        let closedPipe = Pipe(), errors = Pipe()
        try closedPipe.fileHandleForReading.close()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: runner.executable)
        p.arguments = args
        p.environment = shell.environment
        p.standardOutput = closedPipe.fileHandleForWriting
        p.standardError = errors.fileHandleForWriting
        try p.run()
        try closedPipe.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGPIPE, "\(args): ends as SIGPIPE would: \(p.terminationStatus) \(said)")
        #expect(!said.contains("crashed") && !said.contains("cannot write"), "\(args): \(said)")
    }

    @Test func aStorePathThatIsALinkFIFODeviceOrURIIsRefusedUntouched() throws {
        func status(_ store: String, directory: String? = nil) throws -> BinaryRunner.Result {
            try runner.run(["status", "--store", store], timeout: 20, directory: directory)
        }
        let link = dir.file("link.db")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.file("target.db"))
        let dangling = try status(link)
        #expect(dangling.status != 0)
        #expect(dangling.stderr.contains("symbolic link"), "\(dangling.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("target.db")), "nothing made at the link's target")
        let fifo = dir.file("fifo.db")
        #expect(mkfifo(fifo, 0o600) == 0)
        let piped = try status(fifo)  // the old code never returned: the runner's timeout fails it
        #expect(piped.status != 0)
        #expect(piped.stderr.contains("FIFO"), "\(piped.stderr)")
        let device = dir.file("null")
        if mknod(device, S_IFCHR | 0o666, dev_t(0x103) /* makedev(1, 3): /dev/null */) == 0 {
            let null = try status(device)
            #expect(null.status != 0)
            #expect(null.stderr.contains("a device"), "\(null.stderr)")
            #expect(!FileManager.default.fileExists(atPath: device + "-journal"))
            #expect(!FileManager.default.fileExists(atPath: device + "-wal"))
        }
        // A name SQLite would read as a URI is an ordinary (relative) path.
        let work = dir.file("cwd")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        chmod(work, 0o700)
        let uri = try status("file:\(dir.file("uri.db"))?nolock=1", directory: work)
        #expect(!FileManager.default.fileExists(atPath: dir.file("uri.db")), "a file: name must not be opened as a URI: \(uri.stderr)")
    }

    /// Attack 11: a 0644 store or key and a 0777 data directory only warned. They are refused
    /// with the exact chmod, as ssh refuses an unprotected key.
    @Test func aStoreOrKeyOthersCouldReadOrReplaceIsRefusedWithTheChmod() throws {
        for (path, mode, fix) in [(storePath, 0o644, "chmod 600 \(storePath)"), (keyPath, 0o640, "chmod 600 \(keyPath)"),
                                  (dir.file("data/authdeck"), 0o777, "chmod 700 \(dir.file("data/authdeck"))")] {
            let before = ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? 0
            chmod(path, mode_t(mode))
            let r = try run("accounts")
            #expect(r.status != 0, "mode \(String(mode, radix: 8)) on \(path) must be refused")
            #expect(r.stderr.contains(fix), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
            chmod(path, mode_t(before))
        }
        #expect(try run("accounts").status == 0, "the chmod fixes it")
    }

    /// Issue 18 item 6: `status --store /tmp/x.db` told the user to `chmod 700 /tmp`. A shared
    /// directory gets no chmod advice, only what its risk is.
    @Test func aStoreInTmpGetsNoChmodAdviceForTmp() throws {
        let store = "/tmp/authdeck-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).db"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) } }
        // A reading command no longer creates a store: one is made first, as a sign-in would.
        let key = StoreLocation.resolve(storeFlag: nil, environment: runner.environment).keyFilePath
        _ = try DeckStore.open(StoreLocation(databasePath: store, keyFilePath: key), clock: SystemClock())
        let r = try runner.run(["status", "--store", store])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("chmod 700 /tmp"), "\(r.stderr)")
        #expect(!r.stdout.contains("chmod 700 /tmp"), "\(r.stdout)")
        #expect((r.stderr + r.stdout).contains("/tmp is a shared directory"), "the risk is said: \(r.stderr)")
    }

    /// Issue 31, item 3: a mistyped `--store` given to a reading command created the
    /// directories and an empty store and answered "No accounts yet". Reading commands never
    /// create a store; at the default place, before any sign-in, they show an empty result.
    @Test func readingCommandsNeverCreateAStore() throws {
        let fresh = TempDirectory("authdeck-unborn")
        let reader = BinaryRunner.authdeck(home: fresh)
        let typo = fresh.file("typo/dir/store.db")
        for command in [["accounts"], ["status"], ["events"], ["token", "work"], ["cookies", "sp"], ["refresh", "--all"], ["prune", "--dry-run"]] {
            let r = try reader.run(command + ["--store", typo])
            #expect(r.status == 1, "\(command): \(r.stdout) \(r.stderr)")
            #expect(r.stderr.contains("no store at \(typo) (nothing was created)"), "\(command): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: fresh.file("typo")), "no directory was made")
        // Outside a UTF-8 locale the sentence's own dash is ASCII (LANG=C showed its bytes as
        // debris), and so is the table's "no expiry" (the trial's `accounts` under LANG=C).
        let table = try runner.run(["accounts"], env: ["LANG": "C"])
        #expect(table.status == 0 && table.stdout.contains("pending@example.jp") && !table.stdout.contains("—"), "\(table.stdout)")
        #expect(table.stdout.contains(" - "), "\(table.stdout)")
        for locale in [["LANG": "C"], ["LANG": "en_US.UTF-8", "LC_ALL": "POSIX"]] {
            let plain = try reader.run(["accounts", "--store", typo], env: locale)
            #expect(plain.stderr.contains("(nothing was created); check the path given by --store or AUTHDECK_STORE - `authdeck login"), "\(plain.stderr)")
            #expect(!plain.stderr.utf8.contains { $0 >= 0x80 }, "\(locale): \(plain.stderr)")
        }
        let listed = try reader.run(["accounts"])
        #expect(listed.status == 0 && listed.stdout == "No accounts yet.\n", "\(listed.stderr)")
        #expect(try reader.run(["accounts", "--json"]).stdout == "[]\n")
        let status = try reader.run(["status"])
        #expect(status.status == 0 && status.stdout.contains("(not created yet: the first sign-in or import creates it)"), "\(status.stdout)")
        #expect(try reader.run(["providers"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: fresh.file("data/authdeck")), "nothing at the default place either")
    }

    @Test func accountsJSONListsDerivedStatesAndExpiry() throws {
        let r = try run("accounts", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try jsonArray(r.stdout)
        #expect(rows.count == fixture.accounts.count)
        var states: [String: String] = [:]
        for row in rows { states[row["id"] as! String] = row["state"] as? String }
        #expect(states == fixture.expectedStates)
        let valid = try #require(rows.first { $0["id"] as? String == "work/0000a001" })
        let expiresIn = try #require(valid["expires_in_seconds"] as? Int)
        #expect((7000...7200).contains(expiresIn), "about 2 h left, got \(expiresIn)")
        #expect(valid["expires_at"] is String)
        #expect((valid["refresh_token"] as? [String: Any])?["generation"] as? Int == 3)
        let needs = try #require(rows.first { $0["id"] as? String == "work/0000a005" })
        #expect(needs["state_reason"] as? String == "MFA required — sign in again in the browser")
        #expect((needs["last_error"] as? [String: Any])?["code"] as? String == "AADSTS50076")
        for secret in fixture.secrets { #expect(!r.stdout.contains(secret)) }
    }

    @Test func lsIsAnAliasAndTheTableAlignsWideNames() throws {
        let r = try run("ls")
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        let taro = try #require(lines.first { $0.contains("本番 太郎") })
        let jiro = try #require(lines.first { $0.contains("手須戸 二郎") })
        func column(_ line: String, of word: String) -> Int {
            // Display column where `word` starts.
            let prefix = line.components(separatedBy: word)[0]
            return prefix.reduce(0) { $0 + (($1.unicodeScalars.first!.value >= 0x1100) ? 2 : 1) }
        }
        #expect(column(taro, of: "signed in") == column(header, of: "STATE"))
        #expect(column(jiro, of: "expiring soon") == column(header, of: "STATE"))
    }

    @Test func tokenPrintsTheValidTokenOnly() throws {
        let r = try run("token", "work/0000a001")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == fixture.validTokenValue + "\n")
        let byUser = try run("token", "jiro@contoso.com")
        #expect(byUser.status == 0)
        #expect(byUser.stdout.hasPrefix("fixture-secret-at-soon"))
    }

    @Test func tokenExitsThreeWhenOnlyASignInCanHelp() throws {
        let r = try run("token", "fb/0000a004")
        #expect(r.status == 3)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "authdeck: fb/0000a004: Facebook tokens cannot be renewed silently without an app secret; sign in again: `authdeck login fb` [no_app_secret]\n")
        // A grant the provider rejected is not retried silently: exit 3 with its remedy.
        let mfa = try run("token", "mfa@contoso.com")
        #expect(mfa.status == 3)
        #expect(mfa.stderr == "authdeck: work/0000a005: MFA required — sign in again in the browser (`authdeck login work`)\n")
    }

    @Test func tokenRenewalThatCannotReachTheProviderChangesNothing() throws {
        let before = try #require(fixture.accounts.first { $0.account.id == "work/0000a003" })
        let r = try run("token", "hanako")
        #expect(r.status == 4)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("Couldn't connect to server; nothing was changed [network]"), "\(r.stderr)")
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        #expect(try store.account(id: before.account.id) == before)
        let scope = try run("token", "work/0000a001", "--scope", "Mail.Send")
        #expect(scope.status == 4)
    }

    /// An account signed in to another tenant than its provider pins (the fixture's prod account,
    /// of the dev tenant, with a valid cached token) gets no token — not from authdeck-full, and
    /// not from the front once it has the records (it answered `token prod` with the dev token).
    @Test func noTokenIsGivenForAnAccountOfAnotherTenantThanItsProviderPins() throws {
        for attempt in 1...2 {
            let r = try run("token", "prod")
            #expect(r.status == 3, "attempt \(attempt): \(r.stdout) \(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.contains("prod/0000a008 is signed in to tenant \(DeckFixture.devTenant), not \(DeckFixture.prodTenant), which provider prod pins"),
                    "\(r.stderr)")
        }
        // `exec` and `request` hand it out no more than `token` does.
        let exec = try run("exec", "prod/0000a008", "--", "/bin/sh", "-c", "echo ran")
        #expect(exec.status == 3 && !exec.stdout.contains("ran") && exec.stderr.contains("which provider prod pins"), "\(exec.stdout) \(exec.stderr)")
        let request = try run("request", "prod/0000a008", "http://127.0.0.1:9/")
        #expect(request.status == 3 && request.stderr.contains("which provider prod pins"), "\(request.stderr)")
        // The records are in place: an account of the pinned tenant is still served (by the front).
        #expect(try run("token", "work/0000a001").stdout == fixture.validTokenValue + "\n")
    }

    @Test func ambiguousAccountListsCandidatesAndExitsTwo() throws {
        let r = try run("token", "taro@contoso.com")
        #expect(r.status == 2)
        // Only the accounts that could give a token: the SharePoint one of the same user is left out.
        #expect(r.stderr.contains("matches 2 accounts"), "\(r.stderr)")
        for id in ["work/0000a001", "work/0000a009"] { #expect(r.stderr.contains(id)) }
        #expect(!r.stderr.contains("sp/0000a012"), "\(r.stderr)")
        #expect(!r.stderr.contains("authdeck use"), "a username is no provider")
        // A provider's name says how to make it stand for one account (the trial followed the
        // did-you-mean to `token work` and met this error with no way forward).
        let provider = try run("token", "work")
        #expect(provider.status == 2)
        #expect(provider.stderr.contains("(or make one work's default, and \"work\" names it: `authdeck use ID`)"), "\(provider.stderr)")
        let none = try run("token", "nobody")
        #expect(none.status == 2)
        #expect(none.stderr.contains("no account matches \"nobody\" (`authdeck accounts` lists them)"), "\(none.stderr)")
        // A near miss of a provider, an id or a username is offered back (the trial's `token wrok`).
        for (typo, meant) in [("wrok", "work"), ("work/0000a0001", "work/0000a001"), ("jrio@contoso.com", "jiro@contoso.com")] {
            let r = try run("token", typo)
            #expect(r.status == 2)
            #expect(r.stderr.contains("no account matches \"\(typo)\"; did you mean \"\(meant)\"?"), "\(r.stderr)")
        }
    }

    @Test func pruneDryRunListsExactlyTheStaleOnes() throws {
        let r = try run("prune", "--dry-run", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["pruned"] as? [[String: Any]])
        var got: [String: String] = [:]
        for row in rows { got[row["id"] as! String] = row["reason"] as? String }
        #expect(got == fixture.expectedPrune)
        // A dry run changes nothing.
        #expect(try jsonArray(try run("accounts", "--json").stdout).count == fixture.accounts.count)
    }

    @Test func pruneRefusesWithoutATerminalThenPrunesAndUndoes() throws {
        let refused = try run("prune")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--yes"))
        let done = try run("prune", "--yes", "--reason", "wrong-tenant", "--reason", "duplicate")
        #expect(done.status == 0, "\(done.stderr)")
        let left = try jsonArray(try run("accounts", "--json").stdout).map { $0["id"] as! String }
        #expect(!left.contains("prod/0000a008") && !left.contains("work/0000a009"))
        #expect(left.count == fixture.accounts.count - 2)
        let undo = try run("prune", "--undo", "prod/0000a008")
        #expect(undo.status == 0)
        #expect(undo.stdout.contains("Restored 1: prod/0000a008"))
        let events = try run("events", "--json", "--account", "prod/0000a008")
        let kinds = try jsonArray(events.stdout).map { $0["kind"] as! String }
        #expect(kinds == ["pruned", "restored"])
    }

    @Test func cookiesAsJarAndHeader() throws {
        let jar = try run("cookies", "sp/0000a012")
        #expect(jar.status == 0)
        #expect(jar.stdout.hasPrefix("# Netscape HTTP Cookie File"))
        #expect(jar.stdout.contains("\tFedAuth\tfixture-secret-fedauth-"))
        let header = try run("cookies", "sp/0000a012", "--format", "header")
        #expect(header.stdout.hasPrefix("Cookie: FedAuth=fixture-secret-fedauth-"))
        // A token account: the wrong command, a usage error naming the right one.
        let notCookie = try run("cookies", "work/0000a001")
        #expect(notCookie.status == 2 && notCookie.stderr.contains("holds tokens, not cookies; use `authdeck token work/0000a001`"), "\(notCookie.stderr)")
    }

    @Test func logoutDeletesAndRecordsAnEvent() throws {
        let r = try run("logout", "fb/0000a004")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try run("token", "fb/0000a004").status == 2)
        let events = try jsonArray(try run("events", "--json", "--since", "1h").stdout)
        #expect(events.contains { $0["kind"] as? String == "logout" && $0["account"] as? String == "fb/0000a004" })
    }

    @Test func statusCountsByStateAndNamesTheKeySource() throws {
        let r = try run("status", "--json")
        let object = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["key_source"] as? String == "key file \(keyPath)")
        let states = try #require(object["states"] as? [String: Int])
        var expected: [String: Int] = [:]
        for state in fixture.expectedStates.values { expected[state, default: 0] += 1 }
        for key in AccountState.allKeys where expected[key] == nil { expected[key] = 0 }
        #expect(states == expected)
        let plain = try run()
        #expect(plain.status == 0 && plain.stdout.contains("key source: key file"))
        // The states in the words the deck and the man page use ("needs sign in" before).
        #expect(plain.stdout.contains("  needs sign-in: \(expected["needs_sign_in"] ?? 0)\n") && plain.stdout.contains("  expiring soon: "), "\(plain.stdout)")
    }

    @Test func storeAndKeyFilesArePrivate() throws {
        func mode(_ p: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: p)[.posixPermissions] as? Int) ?? -1 }
        #expect(mode(storePath) == 0o600)
        #expect(mode(keyPath) == 0o600)
        for secret in fixture.secrets {
            for file in [storePath, storePath + "-wal"] {
                let blob = FileManager.default.contents(atPath: file) ?? Data()
                #expect(blob.range(of: Data(secret.utf8)) == nil)
            }
        }
    }

    @Test func badFilesGetOneLineErrorsAndStayUntouched() throws {
        // Garbage at the store path.
        let garbage = dir.file("garbage.db")
        try "not a database".write(toFile: garbage, atomically: true, encoding: .utf8)
        let g = try run("status", "--store", garbage)
        #expect(g.status == 1)
        #expect(g.stderr == "authdeck: \(garbage): not an authdeck store (not an SQLite database); left untouched — move it away or pass --store\n")
        #expect(try String(contentsOfFile: garbage, encoding: .utf8) == "not a database")

        // A broken config.
        let broken = "[[provider]]\nid = \"work\"\nkind = \"azuread\"\nscopes = \"openid\"\n"
        try broken.write(toFile: configPath, atomically: true, encoding: .utf8)
        let c = try run("accounts")
        #expect(c.status == 1)
        #expect(c.stderr == "authdeck: \(configPath): provider \"work\": \"scopes\" must be an array of strings (found a string)\n")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == broken)
        try DeckFixture.configTOML.write(toFile: configPath, atomically: true, encoding: .utf8)

        // An unreadable key file (a directory stands in: root reads any mode).
        let key = FileManager.default.contents(atPath: keyPath)!
        let store = FileManager.default.contents(atPath: storePath)!
        try FileManager.default.removeItem(atPath: keyPath)
        try FileManager.default.createDirectory(atPath: keyPath, withIntermediateDirectories: false)
        let k = try run("accounts")
        #expect(k.status == 1)
        #expect(k.stderr.hasPrefix("authdeck: \(keyPath): "))
        #expect(k.stderr.split(separator: "\n").count == 1)
        // A damaged key file.
        try FileManager.default.removeItem(atPath: keyPath)
        try "authdeck-key-v1:short".write(toFile: keyPath, atomically: true, encoding: .utf8)
        let d = try run("accounts")
        #expect(d.stderr == "authdeck: \(keyPath): key file is damaged: the key is not 32 bytes of base64\n")
        #expect(try String(contentsOfFile: keyPath, encoding: .utf8) == "authdeck-key-v1:short")
        #expect(FileManager.default.contents(atPath: storePath) == store)
        try FileManager.default.removeItem(atPath: keyPath)
        _ = FileManager.default.createFile(atPath: keyPath, contents: key)
        chmod(keyPath, 0o600)  // a key others could read is refused
        #expect(try run("accounts").status == 0)
    }

    @Test func usageErrorsExitTwoAndCompletionsGenerate() throws {
        #expect(try run("frobnicate").status == 2)
        #expect(try run("events", "--since", "soon").status == 2)
        let version = try run("--version")
        #expect(version.status == 0 && version.stdout == AuthDeckCore.version + "\n")
        for shell in ["bash", "zsh", "fish"] {
            let c = try run("--generate-completion-script", shell)
            #expect(c.status == 0 && c.stdout.contains("authdeck"), "\(shell)")
        }
    }

    /// Traps a script falls into: an unknown provider listed as "no accounts" (exit 0), a
    /// mistyped command with no suggestion, an empty JSON list that is not `[]`.
    @Test func unknownProvidersAndMistypedCommandsAreNamedAndEmptyJSONIsBrackets() throws {
        let nope = try run("accounts", "--provider", "nope")
        #expect(nope.status == 2, "\(nope.stdout)")
        #expect(nope.stderr.contains("no provider \"nope\" in \(configPath) (configured: "), "\(nope.stderr)")
        #expect(nope.stderr.contains("work") && nope.stdout.isEmpty)
        let nopeJSON = try run("accounts", "--provider", "nope", "--json")
        // Under --json the error is a JSON object (round 3, item 1), not an empty listing.
        let said = try #require(JSONSerialization.jsonObject(with: Data(nopeJSON.stdout.utf8)) as? [String: Any], "\(nopeJSON.stdout)")
        #expect(nopeJSON.status == 2 && said["error_class"] as? String == "usage" && (said["remedy"] as? String)?.contains("no provider \"nope\"") == true, "\(said)")
        let typo = try run("acounts")
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("unknown command \"acounts\"; did you mean \"accounts\"?"), "\(typo.stderr)")
        let nested = try run("key", "migrat")
        #expect(nested.stderr.contains("did you mean \"migrate\"?"), "\(nested.stderr)")
        // A provider that is configured but has no accounts is an empty list, not an error.
        try (DeckFixture.configTOML + "\n[[provider]]\nid = \"spare\"\nkind = \"oidc\"\nclient_id = \"c\"\nendpoints = { issuer = \"http://127.0.0.1:9\" }\n")
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        let empty = try run("accounts", "--provider", "spare", "--json")
        #expect(empty.status == 0 && empty.stdout == "[]\n", "\(empty.stdout)|\(empty.stderr)")
    }

    @Test func configImportURLAddsAnOAMProviderOrWritesNothing() throws {
        let before = try String(contentsOfFile: configPath, encoding: .utf8)
        let bad = try run("config", "import-url", "wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=ftp://h")
        #expect(bad.status == 1)
        #expect(bad.stderr == "authdeck: configuration URL: setting 2 (OAMMSURL): must be an http(s) URL (found \"ftp://h\"); nothing was written\n")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == before)
        // Issue 26: plain http to another machine (a cloud metadata address) is refused.
        let plain = try run("config", "import-url", "wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=http://169.254.169.254/latest")
        #expect(plain.status == 1 && plain.stderr.contains("setting 2 (OAMMSURL): must be an https URL"), "\(plain.stderr)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == before)
        // Issue 26: a look-alike host is shown beside its ASCII (punycode) form.
        let lookalike = try run("config", "import-url", "wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://login.pаypal.example&ApplicationName::=Lookalike")
        #expect(lookalike.status == 0, "\(lookalike.stderr)")
        #expect(lookalike.stderr.contains("OAMMSURL: the host login.pаypal.example is login.xn--pypal-4ve.example in ASCII (punycode)"), "\(lookalike.stderr)")
        let url = "wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://host123.us.example.com:14100&OAMMSServiceDomain::=MobileServiceDomain&ApplicationName::=WhitePages&Color::=blue"
        let ok = try run("config", "import-url", url)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stderr.contains("Ignored (not on the allow-list): Color"))
        let providers = try run("providers", "--json")
        #expect(providers.stdout.contains("\"id\" : \"whitepages\"") && providers.stdout.contains("\"kind\" : \"oam\""))
        // OAMMSAuthentication is the Mobile and Social REST server type (issue 41): no client id is
        // needed, so none is asked for and the provider is ready to sign in.
        #expect(!ok.stderr.contains("OAuthClientID"), "\(ok.stderr)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8).contains("server_type = \"mobile-social\""))
        #expect(!(try String(contentsOfFile: configPath, encoding: .utf8).contains("preset")))
        let entries = try #require(JSONSerialization.jsonObject(with: Data(providers.stdout.utf8)) as? [[String: Any]])
        #expect(entries.first { $0["id"] as? String == "whitepages" }?["problem"] == nil, "\(entries)")
        // The OAuth server type still names the missing client id, in the file and in `providers`.
        let oauth = try run("config", "import-url", "oa://settings?AuthServerType::=OAuth2.0&OAMOAuthServiceEndpoint::=https://host123.us.example.com:14100&ApplicationName::=OAuthApp")
        #expect(oauth.stderr.contains("The URL names no OAuthClientID: set client_id for \"oauthapp\""), "\(oauth.stderr)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8).contains("\n# client_id = \"…\"  # required before the first sign-in"))
        let table = try run("providers")
        #expect(table.stdout.contains("oauthapp: not ready to sign in: provider \"oauthapp\": client_id is required (edit \(configPath))"), "\(table.stdout)")
        // The same name twice is refused, and the file is left as it was.
        let after = try String(contentsOfFile: configPath, encoding: .utf8)
        let again = try run("config", "import-url", url)
        #expect(again.status == 1 && again.stderr.contains("provider \"whitepages\": already exists"))
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == after)
        #expect(try run("config", "import-url", url, "--name", "wp2").status == 0)
        // --client-id fills it in.
        let named = try run("config", "import-url", url, "--name", "wp3", "--client-id", "wp-mobile")
        #expect(named.status == 0 && !named.stderr.contains("OAuthClientID"), "\(named.stderr)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8).contains("id = \"wp3\"\nkind = \"oam\"\nclient_id = \"wp-mobile\""))
        let listed = try #require(JSONSerialization.jsonObject(with: Data(try run("providers", "--json").stdout.utf8)) as? [[String: Any]])
        let wp3 = try #require(listed.first { $0["id"] as? String == "wp3" })
        #expect(wp3["problem"] == nil && wp3["client_id"] as? String == "wp-mobile", "\(wp3)")
    }

    /// Attack 7: `config import-url` on a symlinked config.toml (as dotfile managers make it)
    /// replaced the link with a regular file of mode 0755, the link's own. The link stays, and
    /// the real file is rewritten beside itself with its own mode.
    @Test func configImportURLThroughASymlinkedConfigKeepsTheLinkAndTheMode() throws {
        let real = dir.file("dotfiles/authdeck.toml")
        try FileManager.default.createDirectory(atPath: dir.file("dotfiles"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: configPath, toPath: real)
        chmod(real, 0o600)
        try FileManager.default.createSymbolicLink(atPath: configPath, withDestinationPath: real)
        let url = "wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=https://host123.us.example.com:14100&OAMMSServiceDomain::=MobileServiceDomain&ApplicationName::=WhitePages"
        let r = try run("config", "import-url", url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: configPath)) == real, "config.toml must stay a link")
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("id = \"whitepages\""))
        #expect((try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int) == 0o600)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.file("config/authdeck")) + FileManager.default.contentsOfDirectory(atPath: dir.file("dotfiles"))
        #expect(!left.contains { $0.hasSuffix(".tmp") }, "\(left)")
    }

    /// Attack 9: ACCOUNT and PROVIDER arguments were echoed to stderr raw (`no account matches
    /// "␛]0;pwned␇…"` retitled the terminal). They are made inert as server text is.
    @Test func accountAndProviderArgumentsAreEchoedInert() throws {
        let hostile = "\u{1b}]0;pwned\u{07}\u{1b}[2J"
        for args in [["token", hostile], ["refresh", hostile], ["login", hostile], ["exec", hostile, "--", "true"]] {
            let r = try runner.run(args)
            #expect(r.status != 0, "\(args)")
            #expect(!r.stderr.contains("\u{1b}") && !r.stderr.contains("\u{07}"), "\(args): \(r.stderr.debugDescription)")
        }
        let token = try runner.run(["token", hostile])
        #expect(token.stderr.contains("no account matches \"␛]0;pwned␇␛[2J\""), "\(token.stderr)")
        let login = try runner.run(["login", hostile])
        #expect(login.stderr.contains("␛]0;pwned␇"), "\(login.stderr)")
    }

    @Test func serverTextIsInertInTables() throws {
        let env = runner.environment
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: env), clock: SystemClock())
        try store.insert(StoredAccount(account: Account(
            id: "gl/evil0001", providerId: "gl", subject: "evil", username: "evil@example.jp",
            displayName: "\u{1b}]0;owned\u{07}\u{1b}[2J", createdAt: SystemClock().now(), lastSignInAt: SystemClock().now())))
        let r = try run("ls")
        #expect(!r.stdout.contains("\u{1b}"))
        #expect(r.stdout.contains("␛]0;owned␇␛[2J"))
    }

    /// Issue 26: arguments, options and environment paths echoed in errors carried raw ESC and
    /// BEL in about twenty places. Every stderr writer makes its text inert, so none can forget:
    /// the echo is there, as control pictures, and no byte 0x1B or 0x07 reaches the terminal.
    @Test(arguments: [
        (["accounts", "--store", "DIR/\u{1b}]0;pwned\u{07}.db"], [String: String]()),  // made a directory below: not a store
        (["accounts", "--\u{1b}]0;pwned\u{07}"], [:]),
        (["request", "work/0000a001", "\u{1b}]0;pwned\u{07}http://x"], [:]),
        (["providers"], ["AUTHDECK_CONFIG": "/nonexistent/\u{1b}]0;pwned\u{07}.toml"]),
        (["events", "--since", "\u{1b}]0;pwned\u{07}"], [:]),
        (["prune", "--older-than", "\u{1b}]0;pwned\u{07}"], [:]),
        (["import", "cookies", "/nonexistent/\u{1b}]0;pwned\u{07}", "--provider", "sp"], [:]),
        (["login", "work", "--timeout", "\u{1b}]0;pwned\u{07}"], [:]),
    ])
    func everyErrorIsInertWhateverItEchoes(args: [String], env: [String: String]) throws {
        let args = args.map { $0.replacingOccurrences(of: "DIR/", with: dir.path + "/") }
        if let i = args.firstIndex(of: "--store") { try FileManager.default.createDirectory(atPath: args[i + 1], withIntermediateDirectories: true) }
        let r = try runner.run(args, env: env)
        #expect(r.status != 0, "\(args)")
        #expect(!r.stderr.utf8.contains(0x1B) && !r.stderr.utf8.contains(0x07), "\(args): \(r.stderr.debugDescription)")
        #expect(r.stderr.contains("␛]0;pwned␇"), "\(args): the echo is kept, inert: \(r.stderr)")
    }

    /// Issue 26: a cookie jar or Firefox database whose cookie holds TAB, CR or LF in its name,
    /// value, domain or path would have written extra jar lines. Refused at import, naming the
    /// file and the line or row; nothing is imported.
    @Test func importedCookiesThatWouldInjectJarLinesAreRefusedNamingFileAndLine() throws {
        let future = Int(Date().timeIntervalSince1970) + 86_400
        let good = "contoso.sharepoint.com\tFALSE\t/\tTRUE\t\(future)\tFedAuth\tjar-value\n"
        func ids() throws -> [String] { try jsonArray(try run("accounts", "--json").stdout).compactMap { $0["id"] as? String } }
        let accountsBefore = try ids()
        for (line, name) in [("contoso.sharepoint.com\tFALSE\t/\tTRUE\t\(future)\trtFa\tv\r.evil.example\n", "cr.txt"),
                             ("contoso.sharepoint.com\tFALSE\t/\tTRUE\t\(future)\trt Fa\tv\n", "space.txt"),
                             ("contoso.sharepoint.com\tFALSE\t/a\u{0B}b\tTRUE\t\(future)\trtFa\tv\n", "path.txt")] {
            try (good + line).write(toFile: dir.file(name), atomically: true, encoding: .utf8)
            let r = try run("import", "cookies", dir.file(name), "--provider", "sp", "--username", "jar@contoso.com")
            #expect(r.status == 1 && r.stderr.contains("\(name): line 2: "), "\(name): \(r.stderr)")
        }
        let db = dir.file("cookies.sqlite")
        let sql = """
            CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, name TEXT, value TEXT, host TEXT, path TEXT, expiry INTEGER,
              isSecure INTEGER, isHttpOnly INTEGER);
            INSERT INTO moz_cookies (name, value, host, path, expiry, isSecure, isHttpOnly) VALUES
              ('Other', 'y', 'example.org', '/', \(future), 0, 0),
              ('FedAuth' || char(9) || 'x', 'v' || char(10) || '.evil.example' || char(9) || 'TRUE', 'contoso.sharepoint.com', '/', \(future), 1, 1);
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, sql]
        try p.run()
        p.waitUntilExit()
        let r = try run("import", "cookies", db, "--provider", "sp", "--username", "ff@contoso.com")
        #expect(r.status == 1 && r.stderr.contains("cookies.sqlite: row 2 of moz_cookies: the cookie name \"FedAuth␉x\""), "\(r.stderr)")
        #expect(!r.stderr.contains(".evil.example"), "the value is not shown: \(r.stderr)")
        #expect(try ids() == accountsBefore, "nothing was imported")
    }

    /// Issue 26: a stored cookie whose value holds CR LF (stored before import checked) made
    /// `cookies --format header` print a second header line. Refused, never printed.
    @Test func aStoredCookieThatWouldBreakTheJarOrHeaderIsNotPrinted() throws {
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        let now = SystemClock().now()
        try store.insert(StoredAccount(account: Account(id: "sp/0000bad1", providerId: "sp", subject: "bad-cookie", username: "crlf@contoso.com",
                                                        createdAt: now, lastSignInAt: now),
                                       credentials: Credentials(cookies: [Cookie(id: "c", name: "FedAuth", value: Secret("v\r\nSet-Cookie: x=y"),
                                                                                 domain: "contoso.sharepoint.com", expiresAt: now + .hours(1))])))
        for format in ["header", "netscape"] {
            let r = try run("cookies", "sp/0000bad1", "--format", format)
            #expect(r.status == 1 && r.stdout.isEmpty, "\(format): \(r.stdout.debugDescription)")
            #expect(r.stderr.contains("the value of cookie \"FedAuth\""), "\(format): \(r.stderr)")
            #expect(!r.stderr.contains("Set-Cookie"), "the value is a secret: \(r.stderr)")
        }
    }
}
