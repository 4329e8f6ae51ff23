import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Every secret a session of real commands handled — passwords (right and wrong), access and
/// refresh tokens, cookie values — is looked for in everything authdeck wrote that is not
/// meant to carry one: every `--json` output, the audit trail, stderr of succeeding and
/// failing commands, watch's log, and the bytes of the database and its WAL. Zero hits.
@Suite(.serialized) struct SecretHygieneTests {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-hyg")
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home, ["XDG_RUNTIME_DIR": home.path])
        try home.writeConfig(idp.workAndIntranetTOML(renewBefore: "2h") + "[hooks]\non_renewed = 'env | grep ^AUTHDECK_'\n")
    }

    @Test func noSecretAppearsAnywhereButWhereItWasAskedFor() throws {
        let password = "taro-pass-123", wrong = "not-the-password-9f3c"
        var written: [String] = []  // everything not meant to hold a secret
        func run(_ args: String..., env: [String: String] = [:]) throws -> BinaryRunner.Result {
            var r = runner
            r.environment.merge(env) { _, new in new }
            let result = try r.run(args)
            written.append(result.stderr)
            return result
        }
        #expect(try run("login", "work", "--password", "--username", "taro@contoso.com", env: ["AUTHDECK_PASSWORD": password]).status == 0)
        #expect(try run("login", "work", "--password", "--username", "jiro@contoso.com", env: ["AUTHDECK_PASSWORD": wrong]).status != 0)
        #expect(try run("login", "sp-intranet").status == 0)
        _ = try run("refresh", "work")
        let token = try run("token", "work").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let jar = try run("cookies", "sp-intranet").stdout
        #expect(token.hasPrefix("at.") && jar.contains("SPOIDCRL"))
        written.append(try run("request", "work", "\(idp.url)/api/echo", "--include").stderr)
        for args in [["accounts", "--json"], ["status", "--json"], ["providers", "--json"], ["events", "--json"],
                     ["refresh", "--all", "--force", "--json"], ["prune", "--dry-run", "--json"], ["watch", "--once"]] {
            let r = try runner.run(args)
            written += [r.stdout, r.stderr]
        }
        // renew_before is 2 h, so `watch --once` renewed both accounts and ran the hook, which
        // printed every AUTHDECK_ variable it was given.
        #expect(written.contains { $0.contains("AUTHDECK_EVENT=renewed") && $0.contains("AUTHDECK_ACCOUNT=work/") })
        written.append(try run("exec", "work", "--", "sh", "-c", "exit 3").stdout)
        // A revoked grant: the failing commands' messages too.
        try idp.admin("revoke", #"{"username":"taro@contoso.com"}"#)
        #expect(try run("refresh", "work").status == 3)
        #expect(try run("request", "work", "\(idp.url)/api/me").status == 3)

        // Every secret the session handled, read back from the store.
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        var secrets = [password, wrong, token]
        for stored in try store.accounts(includeQuarantined: true) {
            secrets += stored.credentials.accessTokens.map(\.value.exposedValue)
            secrets += stored.credentials.refreshToken.map { [$0.value.exposedValue] } ?? []
            secrets += stored.credentials.cookies.map(\.value.exposedValue)
        }
        #expect(secrets.count >= 6)
        let db = home.file("data/authdeck/authdeck.db")
        let files = [db, db + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }
        #expect(!files.isEmpty)
        for secret in Set(secrets) where secret.count >= 8 {
            for (i, text) in written.enumerated() {
                #expect(!text.contains(secret), "a secret (\(secret.prefix(4))…) in output #\(i)")
            }
            for bytes in files {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "a secret (\(secret.prefix(4))…) in the database or WAL")
            }
        }
    }

    /// A crash while secrets are in memory: `authdeck watch` (holding freshly renewed tokens
    /// and cookies) is sent SIGSEGV with core dumps allowed by its parent shell. It prints one
    /// line (not Swift's report, which dumps memory at each register), names no secret, and
    /// writes no core file — authdeck sets its own core limit to zero — while a command run by
    /// `exec` still gets the user's limit.
    @Test func aCrashPrintsNoSecretAndLeavesNoCoreFile() throws {
        #expect(try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"]).status == 0)
        #expect(try runner.run(["login", "sp-intranet"]).status == 0)
        let cwd = home.file("cwd")
        try FileManager.default.createDirectory(atPath: cwd, withIntermediateDirectories: true)
        let watch = try LiveProcess("/bin/sh", ["-c", "cd '\(cwd)' && ulimit -c unlimited && exec '\(runner.executable)' watch"],
                                    environment: runner.environment)
        // renew_before is 2 h: the first pass renews both accounts, so fresh secrets are in memory.
        _ = try watch.waitFor(timeout: 60, "the first renewals") { $0.contains("renewed") ? true : nil }
        // Read until zero is seen (2 s at most): for the moment of each hook's spawn the limit is
        // the user's (`CrashHygiene.withInheritedLimit`), and a hook follows every renewal.
        var core = ""
        let deadline = Date().addingTimeInterval(2)
        repeat {
            let limits = try String(contentsOfFile: "/proc/\(watch.pid)/limits", encoding: .utf8)
            core = String(try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }))
        } while core.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first != "0" && Date() < deadline
        #expect(core.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first == "0", "\(core)")
        let argv = (try? String(contentsOfFile: "/proc/\(watch.pid)/cmdline", encoding: .utf8)) ?? ""
        #expect(argv.contains("watch"))
        kill(watch.pid, SIGSEGV)
        let status = try watch.wait(timeout: 60)
        #expect(status == SIGSEGV, "died of the signal, status \(status)")
        #expect(watch.stderr.contains("authdeck: crashed (a bug"), "\(watch.stderr)")
        #expect(!watch.stderr.contains("Registers") && !watch.stderr.contains("Thread 0"), "no memory-dumping report by default")
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        var secrets = ["taro-pass-123"]
        for stored in try store.accounts(includeQuarantined: true) {
            secrets += stored.credentials.accessTokens.map(\.value.exposedValue) + stored.credentials.cookies.map(\.value.exposedValue)
            secrets += stored.credentials.refreshToken.map { [$0.value.exposedValue] } ?? []
        }
        #expect(secrets.count >= 4)
        let report = watch.stderr + watch.stdout + argv  // and nothing in argv, which `ps` shows everyone
        for secret in secrets where secret.count >= 8 {
            #expect(!report.contains(secret), "a secret (\(secret.prefix(4))…) in the crash output")
        }
        // Where the kernel writes core files (not in this CI container, which writes none even
        // for `sleep` killed with SIGSEGV), none would appear; the limits line above is the proof.
        let left = try FileManager.default.contentsOfDirectory(atPath: cwd)
        #expect(!left.contains { $0.hasPrefix("core") }, "no core file: \(left)")
        // The user's own command keeps the user's limit.
        let exec = try BinaryRunner(executable: "/bin/sh", environment: runner.environment)
            .run(["-c", "ulimit -c unlimited && exec '\(runner.executable)' exec work -- sh -c 'ulimit -c'"])
        #expect(exec.status == 0 && exec.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "unlimited", "\(exec.stdout) \(exec.stderr)")
    }
}
