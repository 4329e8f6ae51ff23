import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The MSAL cache doctor against caches written and read by the real MSAL Python library
/// (installed by scripts/test into .build/msal-venv; the path comes in AUTHDECK_TEST_PYTHON).
/// Where MSAL Python is (set by scripts/test), if it is.
enum MSALPython {
    static var path: String? {
        ProcessInfo.processInfo.environment["AUTHDECK_TEST_PYTHON"].flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    }
}

@Suite(.serialized, .enabled(if: MSALPython.path != nil,
                             "SKIPPED: MSAL Python is not installed (run ./scripts/test, which installs it) — the MSAL proof did not run"))
struct MSALTests {
    static var python: String? { MSALPython.path }
    static let tenantA = "72f988bf-86f1-41af-91ab-2d7cd011db47", tenantB = "0d2b2a6e-3c1f-4a43-9b1e-5a6c7d8e9f00"
    static let client = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
    static var harness: String {
        URL(fileURLWithPath: GlewlwydServer.harness).deletingLastPathComponent().appendingPathComponent("msal-cache").path
    }

    let home = TempDirectory("authdeck-msal")
    let runner: BinaryRunner
    var cache: String { home.file("msal_token_cache.json") }

    init() throws {
        runner = BinaryRunner.authdeck(home: home)
        _ = try msal("make", cache)
    }

    func msal(_ args: String...) throws -> String {
        let r = try BinaryRunner(executable: Self.python!).run([Self.harness] + args)
        guard r.status == 0 else { throw NSError(domain: "msal", code: 1, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        return r.stdout
    }

    /// What MSAL itself sees: (username, home account id) pairs, and silent success per account.
    func msalView() throws -> (accounts: [[String]], silent: [String: Bool]) {
        let data = Data(try msal("check", cache, Self.tenantA, Self.client).utf8)
        let json = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (json["accounts"] as? [[String]] ?? [], json["silent"] as? [String: Bool] ?? [:])
    }

    func run(_ args: String...) throws -> BinaryRunner.Result { try runner.run(args) }

    func hid(_ uid: String) -> String { "\(uid).\(Self.tenantA)" }

    @Test func inspectGivesEveryAccountItsVerdict() throws {
        let r = try run("msal", "inspect", cache, "--tenant", Self.tenantA, "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        var verdicts: [String: [String]] = [:]
        for row in rows { verdicts["\(row["username"]!)|\(row["realm"]!)|\(row["home_account_id"]!)"] = row["verdicts"] as? [String] }
        #expect(verdicts["hanako@contoso.com|\(Self.tenantA)|\(hid("uid-hanako"))"] == ["no-refresh-token"])
        #expect(verdicts["taro@contoso.com|\(Self.tenantA)|\(hid("uid-taro"))"] == ["multi-tenant"])
        #expect(verdicts["taro@contoso.com|\(Self.tenantB)|\(hid("uid-taro"))"] == ["multi-tenant", "wrong-tenant"])
        #expect(verdicts["dup@contoso.com|\(Self.tenantA)|\(hid("uid-dup1"))"] == ["duplicate-username"])
        let taro = try #require(rows.first { $0["realm"] as? String == Self.tenantA && $0["username"] as? String == "taro@contoso.com" })
        #expect((taro["claims"] as? [String: String])?["tid"] == Self.tenantA)
        #expect(!r.stdout.contains("rt-uid-taro") && !r.stdout.contains("at-uid-taro"), "no secret in the listing")
        let stdin = try runner.run(["msal", "inspect", "-"], stdin: try String(contentsOfFile: cache, encoding: .utf8))
        #expect(stdin.status == 0 && stdin.stdout.contains("no-refresh-token"))
    }

    @Test func pruneByDefaultRemovesTheAccountWithoutARefreshTokenAndMSALAgrees() throws {
        // An unknown section and an unknown field must survive the rewrite; the mode too.
        var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cache))) as? [String: Any])
        json["XUnknownSection"] = ["k": ["v": 1]]
        var accounts = json["Account"] as! [String: Any]
        let taroKey = accounts.keys.first { $0.hasPrefix(hid("uid-taro")) && $0.hasSuffix(Self.tenantA) }!
        var taro = accounts[taroKey] as! [String: Any]
        taro["x_unknown_field"] = "kept"
        accounts[taroKey] = taro
        json["Account"] = accounts
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: cache))
        chmod(cache, 0o640)

        let dry = try run("msal", "prune", cache, "--dry-run")
        #expect(dry.status == 0 && dry.stdout.contains("hanako@contoso.com") && dry.stdout.contains("dry run"))
        #expect(try msalView().accounts.count == 4, "a dry run changes nothing")
        let r = try run("msal", "prune", cache)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Removed 1 AccessToken, 1 Account, 1 IdToken"), "\(r.stdout)")
        let view = try msalView()
        #expect(view.accounts == [["dup@contoso.com", hid("uid-dup1")], ["dup@contoso.com", hid("uid-dup2")], ["taro@contoso.com", hid("uid-taro")]])
        #expect(view.silent[hid("uid-taro")] == true, "a kept account still signs in silently from the cache")
        let after = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cache))) as? [String: Any])
        #expect(after["XUnknownSection"] != nil)
        #expect(((after["Account"] as? [String: Any])?[taroKey] as? [String: Any])?["x_unknown_field"] as? String == "kept")
        #expect(((try FileManager.default.attributesOfItem(atPath: cache))[.posixPermissions] as? Int) == 0o640)
        let backups = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix("msal_token_cache.json.") && $0.hasSuffix(".bak") }
        #expect(backups.count == 1)
    }

    /// Attack 6: with `msal_token_cache.json.lockfile` a symlink, `prune --dry-run` truncated
    /// its target and wrote a PID into it. The lock file is opened without following links,
    /// must be a regular file, and is never written.
    @Test func aSymlinkedLockFileIsNeitherFollowedNorTruncated() throws {
        let victim = home.file("victim.txt")
        try "PRECIOUS\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let lock = cache + ".lockfile"
        #expect(symlink(victim, lock) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        let dry = try runner.run(["msal", "prune", cache, "--dry-run"], timeout: 20)
        #expect(dry.status != 0)
        #expect(dry.stderr.contains("symbolic link"), "\(dry.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "PRECIOUS\n", "the link's target must be untouched")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache)) == before)
        unlink(lock)
        #expect(mkfifo(lock, 0o600) == 0)
        let fifo = try runner.run(["msal", "prune", cache, "--dry-run"], timeout: 20)
        #expect(fifo.status != 0)
        #expect(fifo.stderr.contains("not a regular file"), "\(fifo.stderr)")
        unlink(lock)
        // A regular lock file someone left is locked as it is, never emptied.
        try "12345 az\n".write(toFile: lock, atomically: false, encoding: .utf8)
        #expect(try run("msal", "prune", cache, "--dry-run").status == 0)
        #expect(try String(contentsOfFile: lock, encoding: .utf8) == "12345 az\n")
    }

    @Test func pruneToOneTenantKeepsTheUsersRefreshToken() throws {
        let r = try run("msal", "prune", cache, "--tenant", Self.tenantA)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(Self.tenantB))
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cache))) as? [String: Any])
        let realms = (json["Account"] as? [String: [String: Any]] ?? [:]).values.compactMap { $0["realm"] as? String }
        #expect(!realms.contains(Self.tenantB))
        #expect((json["RefreshToken"] as? [String: Any] ?? [:]).keys.contains { $0.hasPrefix(hid("uid-taro")) }, "taro's refresh token stays with the realm that stays")
        #expect(try msalView().silent[hid("uid-taro")] == true)
    }

    @Test func keepRemovesEveryoneElse() throws {
        let r = try run("msal", "prune", cache, "--keep", "taro@contoso.com")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try msalView().accounts == [["taro@contoso.com", hid("uid-taro")]])
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cache))) as? [String: Any])
        #expect((json["RefreshToken"] as? [String: Any] ?? [:]).count == 1)
    }

    @Test func aProcessHoldingTheLockMakesPruneWaitThenSucceed() throws {
        let holder = try LiveProcess(Self.python!, [Self.harness, "lock", cache, "2"], environment: ["PATH": "/usr/bin:/bin"])
        _ = try holder.waitFor("the lock") { $0.contains("locked") ? true : nil }
        let started = Date()
        let r = try run("msal", "prune", cache)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Date().timeIntervalSince(started) >= 1, "waited for the lock")
        #expect(holder.stdout.contains("released"))
        // Held longer than the timeout: a clear message, nothing changed.
        let long = try LiveProcess(Self.python!, [Self.harness, "lock", cache, "5"], environment: ["PATH": "/usr/bin:/bin"])
        _ = try long.waitFor("the lock") { $0.contains("locked") ? true : nil }
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        let busy = try run("msal", "prune", cache, "--keep", "taro@contoso.com", "--lock-timeout", "1s")
        #expect(busy.status == 1)
        #expect(busy.stderr.contains("has held the cache lock for more than 1 s; nothing was changed"), "\(busy.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache)) == before)
    }

    @Test func badInputIsNamedAndLeftUntouched() throws {
        func check(_ name: String, _ contents: Data?, expect message: String) throws {
            let path = home.file(name)
            if let contents { _ = FileManager.default.createFile(atPath: path, contents: contents) }
            let before = try? Data(contentsOf: URL(fileURLWithPath: path))
            let r = try run("msal", "prune", path, "--keep", "nobody")
            #expect(r.status == 1, "\(name)")
            #expect(r.stderr.contains(message), "\(name): \(r.stderr)")
            #expect((try? Data(contentsOf: URL(fileURLWithPath: path))) == before, "\(name) untouched")
        }
        try check("garbage.json", Data("hello".utf8), expect: "not valid JSON")
        try check("array.json", Data("[1,2]".utf8), expect: "not a JSON object")
        let whole = try Data(contentsOf: URL(fileURLWithPath: cache))
        try check("truncated.json", whole.prefix(whole.count / 2), expect: "not valid JSON (truncated or damaged?)")
        try check("shape.json", Data(#"{"Account":[1]}"#.utf8), expect: "section \"Account\" is not an object of entries")
        // A 100 MB file (sparse: no disk is spent).
        _ = FileManager.default.createFile(atPath: home.file("huge.json"), contents: nil)
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: home.file("huge.json")))
        try h.truncate(atOffset: 100 << 20)
        try h.close()
        try check("huge.json", nil, expect: "is 100 MiB; an MSAL token cache is far smaller")
        try FileManager.default.createSymbolicLink(atPath: home.file("link.json"), withDestinationPath: cache)
        try check("link.json", nil, expect: "is a symbolic link (to \(cache))")
    }

    @Test func importedAccountsRenewAgainstTheEmulator() throws {
        let idp = try EmulatorProcess()
        // A real token response from the emulator, added to a cache by MSAL itself.
        let response = try EmulatorProcess.curl(["-s", "-d", "grant_type=password", "-d", "client_id=\(Self.client)", "-d", "client_info=1",
                                                 "--data-urlencode", "scope=openid profile offline_access https://graph.microsoft.com/User.Read",
                                                 "-d", "username=taro@contoso.com", "-d", "password=taro-pass-123",
                                                 "\(idp.url)/\(Self.tenantA)/oauth2/v2.0/token"])
        try response.write(toFile: home.file("resp.json"), atomically: true, encoding: .utf8)
        let fresh = home.file("fresh.json")
        try "".write(toFile: fresh, atomically: true, encoding: .utf8)
        // MSAL only accepts https authorities; the environment recorded does not matter to the import.
        _ = try msal("add", fresh, "https://login.microsoftonline.com/\(Self.tenantA)/oauth2/v2.0/token", Self.client,
                     "https://graph.microsoft.com/User.Read", home.file("resp.json"))
        try home.writeConfig("""
            [[provider]]
            id = "work"
            kind = "azuread"
            client_id = "\(Self.client)"
            endpoints = { authority = "\(idp.url)" }
            options = { tenant = "\(Self.tenantA)" }
            """)
        let imported = try run("import", "msal", fresh, "--provider", "work")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 1: taro@contoso.com"))
        let refreshed = try run("refresh", "taro@contoso.com")
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(try run("token", "taro@contoso.com").stdout.hasPrefix("at."))
    }
}
