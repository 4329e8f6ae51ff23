import Testing
import Foundation
import AuthDeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `authdeck request`, `exec` and `watch` through the real binary against the emulator:
/// renew-and-retry on a challenge, credentials kept to their origin, the exec jar's life,
/// and watch keeping a 5-second token alive and telling once when it cannot.
@Suite(.serialized) struct RequestExecWatchTests {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-req")
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home, ["XDG_RUNTIME_DIR": home.path])
        try home.writeConfig(idp.workAndIntranetTOML())
    }

    func run(_ args: String..., env: [String: String] = [:]) throws -> BinaryRunner.Result {
        try runner.run(args, env: env)
    }

    func signIn(sharePoint: Bool = false) throws {
        let work = try run("login", "work", "--password", "--username", "taro@contoso.com", env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        #expect(work.status == 0, "\(work.stderr)")
        if sharePoint {
            let sp = try run("login", "sp-intranet")
            #expect(sp.status == 0, "\(sp.stderr)")
        }
    }

    /// How many responses the emulator gave to `key` ("GET /api/me 401").
    func responses(_ key: String) throws -> Int { try idp.count(key, in: "responses") }

    // MARK: request

    @Test func aSharePointCookieThatExpiresBetweenTwoCallsIsRenewedWithExactlyOneRetry() throws {
        try signIn(sharePoint: true)
        let first = try run("request", "sp-intranet", "\(idp.url)/_api/web")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("\"CurrentUser\":\"taro@contoso.com\""))
        #expect(try responses("GET /_api/web 200") == 1)
        // Six hours pass at the site: the 5-hour cookie is dead there, though it looks valid here.
        try idp.admin("clock", #"{"advance":21600}"#)
        let second = try run("request", "sp-intranet", "\(idp.url)/_api/web", "--include")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("\"CurrentUser\":\"taro@contoso.com\""))
        #expect(!second.stdout.contains("403 FORBIDDEN"), "the challenge's body must not reach the output")
        #expect(second.stderr.contains("was renewed and the request sent again"))
        #expect(try responses("GET /_api/web 403") == 1, "exactly one refused call")
        #expect(try responses("GET /_api/web 200") == 2, "and exactly one retry")
    }

    @Test func aBearerTokenRevokedMidwayExitsThreeWithTheRemedy() throws {
        try signIn()
        let ok = try run("request", "work", "\(idp.url)/api/me")
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("\"user\":\"taro@contoso.com\""))
        try idp.admin("revoke", #"{"username":"taro@contoso.com"}"#)
        let refused = try run("request", "work", "\(idp.url)/api/me")
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.contains("sign in again"))
        #expect(refused.stdout.isEmpty, "nothing of the 401 answer on stdout")
        #expect(try responses("GET /api/me 401") == 1, "one challenge, then the renewal was refused: no second call")
        // Nothing was deleted (only a sign-out or prune deletes), and the dead grant is not
        // spent again behind a script's back: the next call's challenge goes straight to exit 3.
        let listed = try run("accounts", "--json")
        #expect(listed.stdout.contains("work/"), "\(listed.stdout)")
        let tokenCalls = try responses("POST /\(EmulatorProcess.contoso)/oauth2/v2.0/token 400")
        let again = try run("request", "work", "\(idp.url)/api/me")
        #expect(again.status == 3)
        #expect(again.stderr.contains("authdeck login work"), "\(again.stderr)")
        #expect(try responses("POST /\(EmulatorProcess.contoso)/oauth2/v2.0/token 400") == tokenCalls)
    }

    @Test func aRedirectToAnotherHostGetsNoCredential() throws {
        try signIn(sharePoint: true)
        let port = String(idp.url.split(separator: ":").last!)
        // Same origin: the token follows the redirect.
        let same = try run("request", "work", "\(idp.url)/api/redirect?to=/api/echo")
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("\"authorization\":\"Bearer "))
        // Another host (localhost is not 127.0.0.1): neither the token nor the cookies go there.
        for (account, status) in [("work", "302"), ("sp-intranet", "307")] {
            let other = try run("request", account, "\(idp.url)/api/redirect?status=\(status)&to=http://localhost:\(port)/api/echo", "--include")
            #expect(other.status == 0, "\(other.stderr)")
            #expect(other.stdout.contains("\"host\":\"localhost:\(port)\""), "\(other.stdout)")
            #expect(!other.stdout.lowercased().contains("authorization"), "\(other.stdout)")
            #expect(!other.stdout.lowercased().contains("cookie"), "\(other.stdout)")
            #expect(other.stderr.contains("the credential was not sent there"))
        }
    }

    @Test func aLargeBodyStreamsToAPrivateFileAndHeadersToStderr() throws {
        try signIn()
        let out = home.file("download.bin")
        let r = try run("request", "work", "\(idp.url)/api/bytes?n=5000000", "-o", out, "-i")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("HTTP 200"))
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        #expect((attributes[.size] as? Int) == 5_000_000, "past the 1 MiB cap of OAuth answers: streamed, not collected")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // A header that would smuggle a credential in is refused before anything is sent.
        let bad = try run("request", "work", "\(idp.url)/api/me", "-H", "Authorization: Bearer x")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("authdeck adds the account's credential itself"))
        let missing = try run("request", "work", "\(idp.url)/api/nothing-here")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("answered HTTP 404"))
    }

    /// `request --json` (issue 39, round 3, item 1): the status, headers and body as text in one
    /// object instead of the body alone; an error answer is the same object with its status.
    @Test func requestAsJSONGivesStatusHeadersAndBodyAsText() throws {
        try signIn()
        let r = try run("request", "work", "\(idp.url)/api/me", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let o = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        #expect(o["status"] as? Int == 200 && o["url"] as? String == "\(idp.url)/api/me", "\(o)")
        let headers = try #require(o["headers"] as? [[String: String]], "\(o)")
        #expect(headers.contains { $0["name"]?.lowercased() == "content-type" && $0["value"]?.contains("application/json") == true }, "\(headers)")
        let body = try #require(o["body"] as? String, "\(o)")
        let me = try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
        #expect(me["user"] as? String == "taro@contoso.com", "\(me)")
        #expect(o["renewed"] as? Bool == false)
        let missing = try run("request", "work", "\(idp.url)/api/nothing-here", "--json")
        #expect(missing.status == 1)
        let m = try #require(JSONSerialization.jsonObject(with: Data(missing.stdout.utf8)) as? [String: Any], "\(missing.stdout)")
        #expect(m["status"] as? Int == 404, "\(m)")
        // With -o the body goes to the file and the JSON names it.
        let out = home.file("me.json")
        let saved = try run("request", "work", "\(idp.url)/api/me", "-o", out, "--json")
        let s = try #require(JSONSerialization.jsonObject(with: Data(saved.stdout.utf8)) as? [String: Any], "\(saved.stdout)")
        #expect(s["body_file"] as? String == out && s["body"] == nil, "\(s)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("taro@contoso.com"))
    }

    /// The staged downloads beside `file` (`.NAME.authdeck-*`).
    func staged(beside file: String) -> [String] {
        let dir = (file as NSString).deletingLastPathComponent, name = (file as NSString).lastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix(".\(name).authdeck-") }.sorted()
    }

    /// Issue 26: Ctrl-C, SIGTERM or SIGHUP during `request -o FILE`'s body left
    /// `.FILE.authdeck-XXXX` for ever. Each signal now removes it on the way out, and FILE is
    /// left as it was.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalDuringTheBodyRemovesTheStagedFile(signal: Int32) throws {
        try signIn()
        let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../harness/http-fixture").standardized.path
        let port = FreePort.pick()
        let server = try LiveProcess(harness, [String(port)], environment: ["PATH": "/usr/bin:/bin"])
        _ = try server.waitFor("the fixture server") { $0.contains("ready") ? true : nil }
        let out = home.file("slow-\(signal).txt")
        try "KEEP\n".write(toFile: out, atomically: true, encoding: .utf8)
        let live = try LiveProcess(runner.executable, ["request", "work", "http://127.0.0.1:\(port)/slow", "-o", out], environment: runner.environment)
        // In the body: the staged file has its first bytes.
        let stagedName = try live.waitFor(timeout: 20, "the body to start") { _ -> String? in
            guard let name = staged(beside: out).first else { return nil }
            let size = (try? FileManager.default.attributesOfItem(atPath: home.file(name))[.size] as? Int) ?? 0
            return size > 0 ? name : nil
        }
        kill(live.pid, signal)
        let status = try live.wait(timeout: 10)
        print("request -o, signal \(signal) in the body: exit \(status), staged \(stagedName) left: \(staged(beside: out))")
        #expect(status == signal || status == 128 + signal, "ended by the signal (\(status))")
        #expect(staged(beside: out).isEmpty, "signal \(signal): \(staged(beside: out)) left beside \(out)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "KEEP\n", "the file is left as it was")
        withExtendedLifetime(server) {}
    }

    /// Issue 26: staged files left by a SIGKILLed `request -o` are swept by the next download
    /// beside the same file once an hour old — only the exact pattern, only regular files.
    @Test func oldStagedFilesBesideTheOutputAreSwept() throws {
        try signIn()
        let out = home.file("swept.json")
        let old = home.file(".swept.json.authdeck-1x2y3z"), fresh = home.file(".swept.json.authdeck-4a5b6c")
        let lookalikes = [home.file(".swept.json.authdeck-1x2y3z.keep"), home.file(".swept.json.authdeck-UPPER"),
                          home.file(".other.json.authdeck-1x2y3z"), home.file("swept.json.authdeck-1x2y3z")]
        for path in [old, fresh] + lookalikes { try "partial".write(toFile: path, atomically: false, encoding: .utf8) }
        let twoHoursAgo = Date().addingTimeInterval(-7200)
        for path in [old] + lookalikes { try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: path) }
        let oldDir = home.file(".swept.json.authdeck-9z9z9z")
        try FileManager.default.createDirectory(atPath: oldDir, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: oldDir)
        let r = try run("request", "work", "\(idp.url)/api/me", "-o", out)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: old), "an hour-old staged file is swept")
        #expect(FileManager.default.fileExists(atPath: fresh), "a recent one may be another download under way")
        for path in lookalikes + [oldDir] { #expect(FileManager.default.fileExists(atPath: path), "\(path) is not ours to remove") }
        print("request -o sweep: 1 old staged file removed; 1 recent, 4 look-alikes and 1 directory kept")
    }

    /// Attack 1: `request … -o FILE` deleted the file on a failed request, emptied a symlink's
    /// target and removed the link, wrote an error body over the file, and deleted a device node.
    @Test func requestOutputFileIsNeverDeletedOrEmptiedByAFailure() throws {
        try signIn()
        let file = home.file("keep.txt")
        try "KEEP\n".write(toFile: file, atomically: false, encoding: .utf8)
        func content(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
        // A network failure: the file is untouched, as stderr says.
        let refused = try run("request", "work", "http://127.0.0.1:1/x", "-o", file)
        #expect(refused.status == 4, "\(refused.stderr)")
        #expect(content(file) == "KEEP\n", "a failed request must leave -o's file as it was")
        // An HTTP error answer's body does not replace the file.
        let missing = try run("request", "work", "\(idp.url)/api/nothing-here", "-o", file)
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("was left as it was"), "\(missing.stderr)")
        #expect(content(file) == "KEEP\n")
        // Issue 31, item 18: of a file that never existed it said "was left as it was".
        let never = home.file("never.txt")
        let none = try run("request", "work", "\(idp.url)/api/nothing-here", "-o", never)
        #expect(none.status == 1 && none.stderr.contains("nothing was written to \(never)"), "\(none.stderr)")
        #expect(!none.stderr.contains("left as it was") && !FileManager.default.fileExists(atPath: never))
        // Through a symlink: the target keeps its content on failure; on success it gets the
        // body and the link stays a link.
        let link = home.file("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let viaLink = try run("request", "work", "http://127.0.0.1:1/x", "-o", link)
        #expect(viaLink.status == 4)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == file, "the link must stay")
        #expect(content(file) == "KEEP\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        let fetched = try run("request", "work", "\(idp.url)/api/me", "-o", link)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == file)
        #expect(content(file)?.contains("\"user\":\"taro@contoso.com\"") == true)
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o640, "a replaced file keeps its mode")
        // A device node (a copy of /dev/null) is written through, never removed.
        let device = home.file("null")
        if mknod(device, S_IFCHR | 0o666, dev_t(0x103) /* makedev(1, 3): /dev/null */) == 0 {
            let failed = try run("request", "work", "http://127.0.0.1:1/x", "-o", device)
            #expect(failed.status == 4)
            var info = stat()
            #expect(lstat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "the device node must survive a failed request")
            let written = try run("request", "work", "\(idp.url)/api/me", "-o", device)
            #expect(written.status == 0, "\(written.stderr)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.contains(".authdeck-") }
        #expect(left.isEmpty, "no download left beside the target: \(left)")
    }

    // MARK: exec

    @Test func execPassesTheTokenAndJarAndRemovesTheJarAfterwards() throws {
        try signIn(sharePoint: true)
        let script = """
            printf '%s\\n' "$AUTHDECK_TOKEN" > '\(home.file("token"))'
            printf '%s\\n' "$AUTHDECK_TOKEN_WORK" >> '\(home.file("token"))'
            printf '%s\\n' "$AUTHDECK_COOKIE_JAR" > '\(home.file("jarpath"))'
            stat -c %a "$AUTHDECK_COOKIE_JAR" > '\(home.file("jarmode"))'
            curl -s -b "$AUTHDECK_COOKIE_JAR" '\(idp.url)/_api/web' > '\(home.file("web"))'
            exit 7
            """
        let r = try run("exec", "work", "sp-intranet", "--", "sh", "-c", script)
        #expect(r.status == 7, "the command's status: \(r.stderr)")
        let tokens = try String(contentsOfFile: home.file("token"), encoding: .utf8).split(separator: "\n")
        #expect(tokens.count == 2 && tokens[0] == tokens[1] && tokens[0].hasPrefix("at."))
        #expect(try String(contentsOfFile: home.file("jarmode"), encoding: .utf8) == "600\n")
        #expect(try String(contentsOfFile: home.file("web"), encoding: .utf8).contains("\"CurrentUser\":\"taro@contoso.com\""))
        let jar = try String(contentsOfFile: home.file("jarpath"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(jar.hasPrefix(home.path + "/authdeck-exec."))
        #expect(!FileManager.default.fileExists(atPath: jar), "the jar is gone when the command ends")
        #expect(!FileManager.default.fileExists(atPath: (jar as NSString).deletingLastPathComponent))
        // Options before the first ACCOUNT are options; everything after `--` is the command's.
        let store = home.file("data/authdeck/authdeck.db")
        let withOptions = try run("exec", "--store", store, "--scope", "https://contoso.sharepoint.com/.default", "work", "--",
                                  "sh", "-c", "test -n \"$AUTHDECK_TOKEN\" && echo \"$# $1\"", "sh", "--", "-x")
        #expect(withOptions.status == 0, "\(withOptions.stderr)")
        #expect(withOptions.stdout == "2 --\n")
        #expect(try run("exec", "--help").stdout.contains("Run COMMAND with fresh credentials"))
    }

    @Test func theJarIsRemovedWhenTheCommandIsKilledAndWhenAuthdeckIsTerminated() throws {
        try signIn(sharePoint: true)
        // The command dies by SIGKILL: authdeck reports 128+9 and still removes the jar.
        let killed = try run("exec", "sp-intranet", "--", "sh", "-c", "echo \"$AUTHDECK_COOKIE_JAR\" > '\(home.file("jar1"))'; kill -9 $$")
        #expect(killed.status == 137)
        let jar1 = try String(contentsOfFile: home.file("jar1"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!jar1.isEmpty && !FileManager.default.fileExists(atPath: jar1))
        // authdeck itself gets SIGTERM while the command runs: it passes it on and cleans up.
        let live = try LiveProcess(runner.executable, ["exec", "sp-intranet", "--", "sh", "-c",
                                                       "echo \"$AUTHDECK_COOKIE_JAR\" > '\(home.file("jar2"))'; echo started; exec sleep 60"],
                                   environment: runner.environment)
        _ = try live.waitFor("the command to start") { $0.contains("started") ? true : nil }
        let jar2 = try String(contentsOfFile: home.file("jar2"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(FileManager.default.fileExists(atPath: jar2))
        kill(live.pid, SIGTERM)
        #expect(try live.wait(timeout: 10) == 128 + SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: jar2))
    }

    /// Attack 8: with `client_secret_env = "DAEMON_SECRET"`, a hook running `env` and an `exec`
    /// child printed the client secret. A secret is planted in each variable a secret can come
    /// from; neither a hook nor a child may see any of them.
    @Test func clientSecretsAndPasswordsNeverReachHooksOrExecChildren() throws {
        try home.writeConfig(idp.workAndIntranetTOML() + """
            [[provider]]
            id = "daemon"
            kind = "oidc"
            client_id = "daemon-client"
            client_secret_env = "DAEMON_SECRET"
            endpoints = { issuer = "\(idp.url)/daemon" }
            options = { auth_method = "client_secret_post" }

            [hooks]
            on_renewed = 'env > "\(home.file("hook.env"))"'
            """)
        let secrets = ["DAEMON_SECRET": "daemon-secret-Zx81", "AUTHDECK_PASSWORD": "taro-pass-123", "AUTHDECK_PASSPHRASE": "passphrase-Qw93"]
        try signIn()
        let exec = try run("exec", "work", "--", "env", env: secrets)
        #expect(exec.status == 0, "\(exec.stderr)")
        #expect(exec.stdout.contains("AUTHDECK_TOKEN="), "the child gets its token")
        for (name, value) in secrets {
            #expect(!exec.stdout.contains(value), "the exec child saw \(name)")
        }
        // watch renews the 5-second token and runs the hook with the same variables set.
        try idp.admin("lifetimes", #"{"access_token":5}"#)
        try signIn()
        var environment = runner.environment
        environment.merge(secrets) { _, new in new }
        let watch = try LiveProcess(runner.executable, ["watch", "--max-interval", "2"], environment: environment)
        defer {
            kill(watch.pid, SIGTERM)
            _ = try? watch.wait(timeout: 10)
        }
        try waitUntil("the on_renewed hook runs") {
            ((try? String(contentsOfFile: home.file("hook.env"), encoding: .utf8)) ?? "").contains("AUTHDECK_EVENT=")
        }
        let hookEnv = try String(contentsOfFile: home.file("hook.env"), encoding: .utf8)
        #expect(hookEnv.contains("AUTHDECK_ACCOUNT=work/"))
        for (name, value) in secrets {
            #expect(!hookEnv.contains(value), "the hook saw \(name)")
        }
    }

    // MARK: watch

    @Test func watchKeepsAFiveSecondTokenValidAndTellsOnceWhenTheGrantIsRevoked() throws {
        try home.writeConfig("""
            clock_skew = "1s"
            [hooks]
            on_renewed = 'echo "renewed $AUTHDECK_ACCOUNT" >> "\(home.file("hooks.log"))"; env | grep ^AUTHDECK_ >> "\(home.file("hooks.log"))"'
            on_needs_sign_in = 'echo "needs_sign_in $AUTHDECK_ACCOUNT $AUTHDECK_PROVIDER" >> "\(home.file("hooks.log"))"'

            [[provider]]
            id = "work"
            kind = "azuread"
            client_id = "\(EmulatorProcess.publicClient)"
            renew_before = "2s"
            endpoints = { authority = "\(idp.url)" }
            options = { tenant = "\(EmulatorProcess.contoso)", allow_password = true }
            """)
        try idp.admin("lifetimes", #"{"access_token":5}"#)
        try signIn()
        let watch = try LiveProcess(runner.executable, ["watch", "--max-interval", "5", "--verbose"], environment: runner.environment)
        // 20 seconds: four token lifetimes, and at no moment is the account without a valid token.
        let deadline = Date().addingTimeInterval(20)
        var checks = 0
        while Date() < deadline {
            let listed = try run("accounts", "--json")
            let rows = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let state = rows.first?["state"] as? String
            #expect(state == "signed_in" || state == "expiring_soon", "at check \(checks): \(state ?? "none")\n\(watch.stderr)")
            checks += 1
            usleep(500_000)
        }
        let renewals = try String(contentsOfFile: home.file("hooks.log"), encoding: .utf8).components(separatedBy: "renewed ").count - 1
        #expect(renewals >= 4, "a 5-second token kept alive for 20 s takes at least four renewals (saw \(renewals))")
        #expect(!watch.stderr.contains("needs a sign-in"))
        // The grant is revoked: watch tells once, and keeps quiet on later passes.
        try idp.admin("revoke", #"{"username":"taro@contoso.com"}"#)
        try waitUntil("on_needs_sign_in runs") {
            (try? String(contentsOfFile: home.file("hooks.log"), encoding: .utf8))?.contains("needs_sign_in") ?? false
        }
        let attemptsAfter = try responses("POST /\(EmulatorProcess.contoso)/oauth2/v2.0/token 400")
        // Two more passes (watch logs each with --verbose): they must neither call the hook nor
        // retry the dead grant.
        let passes = watch.stderr.components(separatedBy: "pass done").count
        try waitUntil("two more passes", timeout: 20) { watch.stderr.components(separatedBy: "pass done").count >= passes + 2 }
        let log = try String(contentsOfFile: home.file("hooks.log"), encoding: .utf8)
        #expect(log.components(separatedBy: "needs_sign_in").count - 1 == 1, "\(log)")
        #expect(log.contains("needs_sign_in work/") && log.contains(" work\n"))
        #expect(try responses("POST /\(EmulatorProcess.contoso)/oauth2/v2.0/token 400") == attemptsAfter)
        kill(watch.pid, SIGTERM)
        _ = try? watch.wait(timeout: 10)
        #expect(log.contains("AUTHDECK_PROVIDER=work"), "the hook's environment is in the log")
        #expect(!log.contains("at."), "no token in what hooks were given")
    }
}
