import Testing
import Foundation
import AuthDeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `authdeck demo` leaves nothing behind however it ends: `q`, Ctrl-C, SIGTERM, SIGHUP (the
/// terminal closed) or SIGKILL — no emulator process, no temporary store, WAL, key or config.
/// Each run has its own TMPDIR, so the check sees this demo's files and no one else's.
@Suite(.serialized) struct DemoExitTests {
    let home = TempDirectory("authdeck-demo-exit")
    var tmp: String { home.file("tmp") }
    var environment: [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"), "TMPDIR": tmp,
         "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color"]
    }
    var binary: String { BinaryRunner(product: "authdeck", environment: [:]).executable }

    init() throws {
        try FileManager.default.createDirectory(atPath: home.file("tmp"), withIntermediateDirectories: true)
    }

    func demoDirectories() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("authdeck-demo-") }
    }

    /// The pids of `parent`'s children named `name` (from /proc).
    func children(of parent: Int32, named name: String) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let comm = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            return comm == name && fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
        }
    }

    func alive(_ pid: Int32) -> Bool {
        // A zombie is gone for our purpose (its parent has not reaped it yet).
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !stat.contains(") Z ")
    }

    /// Opens the demo in tmux; returns the session, the demo's pid and its emulator's pid.
    func openDemo(expecting count: Int = 1) throws -> (TmuxSession, demo: Int32, emulator: Int32) {
        let s = try TmuxSession(environment: environment, command: "\(binary) demo; echo EXIT=$?")
        try s.waitFor("every provider kind", timeout: 90) { screen in
            ["Azure AD", "SharePoint", "Facebook", "Oracle AM", "OIDC"].allSatisfy(screen.contains)
        }
        let dirs = demoDirectories()
        #expect(dirs.count == count, "\(dirs)")
        // `authdeck-demo-PID-XXXXXX` (mkdtemp)
        let (name, demo) = try #require(dirs.compactMap { d in Int32(d.dropFirst("authdeck-demo-".count).prefix { $0 != "-" }).map { (d, $0) } }.first)
        let emulator = try #require(children(of: demo, named: "authdeck-idp").first, "the demo's emulator is its child")
        #expect(FileManager.default.fileExists(atPath: "\(tmp)/\(name)/authdeck.db"))
        return (s, demo, emulator)
    }

    func expectNothingLeft(demo: Int32, emulator: Int32, after what: String) throws {
        try waitUntil("the demo (\(demo)) to end after \(what)") { !alive(demo) }
        try waitUntil("the emulator (\(emulator)) to end after \(what)") { !alive(emulator) }
        try waitUntil("the demo directory to go after \(what)") { demoDirectories().isEmpty }
    }

    @Test func quitWithQ() throws {
        let (s, demo, emulator) = try openDemo()
        try s.send("q")
        try s.waitFor(text: "EXIT=0")
        try expectNothingLeft(demo: demo, emulator: emulator, after: "q")
    }

    /// The demo's stale hanako (a sign-in that never completed) can be mended from its row:
    /// the demo approves the device code as the account being signed in, not always as taro
    /// (issue 31, item 6).
    @Test func theStaleHanakoSignsInAgainAsHanako() throws {
        let (s, demo, emulator) = try openDemo()
        try s.send("/")
        try s.send(literal: "hanako")
        try s.send("Enter")
        try s.waitFor("hanako's row alone") { $0.contains("hanako@contoso.com") && $0.contains("stale") }
        try s.send("Enter")
        try s.waitFor(text: "and enter the code:")
        try s.waitFor(text: "Signed in oidc/hanako@contoso.com.", timeout: 40)
        let screen = try s.screen()
        #expect(!screen.contains("another account"), "\(screen)")
        try s.waitFor("hanako signed in") { $0.contains("hanako@contoso.com") && $0.contains("● signed in") }
        try s.send("q")
        try s.waitFor(text: "EXIT=0")
        try expectNothingLeft(demo: demo, emulator: emulator, after: "q")
    }

    @Test func ctrlC() throws {
        let (s, demo, emulator) = try openDemo()
        try s.send("C-c")
        try s.waitFor(text: "EXIT=130")
        try expectNothingLeft(demo: demo, emulator: emulator, after: "Ctrl-C")
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGKILL])
    func aSignal(_ signal: Int32) throws {
        let (s, demo, emulator) = try openDemo()
        kill(demo, signal)
        try s.waitFor(text: "EXIT=\(128 + signal)")
        try expectNothingLeft(demo: demo, emulator: emulator, after: "signal \(signal)")
    }

    /// `demo --seed-only` is for scripts: its emulator and store outlive the command, and the
    /// next demo's sweep leaves them alone.
    @Test func aSeedOnlyDemoOutlivesItsCommandAndIsNotSwept() throws {
        let r = try BinaryRunner(product: "authdeck", environment: environment).run(["demo", "--seed-only"], timeout: 90)
        #expect(r.status == 0, "\(r.stderr)")
        let store = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("store ") }?.dropFirst("store ".count))
        let pid = try #require(r.stdout.split(separator: " ").last.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        defer { kill(pid, SIGTERM) }
        #expect(alive(pid), "the seeded emulator is still serving")
        #expect(FileManager.default.fileExists(atPath: String(store)))
        // What a script needs beside the paths: the OAM secret's variable, the users, how to
        // approve a device code (issue 31, item 8).
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // One line a shell can run: every variable the commands need.
        let export = try #require(lines.first { $0.hasPrefix("export ") }, "\(r.stdout)")
        #expect(export.contains("AUTHDECK_STORE=\(store)") && export.hasSuffix("AUTHDECK_DEMO_OAM_SECRET=oam-secret"), "\(export)")
        #expect(lines.contains { $0.hasPrefix("users ") && $0.contains("hanako@contoso.com:hanako-pass-123") })
        // And how to end it: nothing else ever removes a seeded demo (the trial).
        let directory = (String(store) as NSString).deletingLastPathComponent
        #expect(lines.contains("remove kill \(pid); rm -r \(directory)"), "\(r.stdout)")
        let url = try #require(lines.first { $0.hasPrefix("emulator ") }?.split(separator: " ").dropFirst().first.map(String.init))
        // The admin API names a body that is not JSON instead of reading it as {}.
        let form = try BinaryRunner(executable: "/usr/bin/curl", environment: environment)
            .run(["-s", "-d", "user_code=ABCD&username=taro@contoso.com", url + "/_admin/device/approve"])
        #expect(form.stdout.contains("must be a JSON object"), "\(form.stdout)")
        let (s, demo, emulator) = try openDemo(expecting: 2)
        #expect(FileManager.default.fileExists(atPath: String(store)), "a seeded demo's store is not swept")
        try s.send("q")
        try waitUntil("the demo to end") { !alive(demo) && !alive(emulator) }
        #expect(alive(pid))
    }

    /// Issue 38: the seed's directory was `$TMPDIR/authdeck-demo-seed-<pid>`, a name another
    /// local user could create first (and so make `demo --seed-only` fail). Every such name a
    /// pid can give, and the plain demo's, is taken here by another user (nobody); the demo
    /// still seeds, in a directory of its own that is private.
    @Test func predictableNamesTakenByAnotherUserDoNotBlockTheSeed() throws {
        let lastPid = Int32((try String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8))
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 300
        let pidMax = Int32((try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 32768
        // Every pid when there are few; else the next 20,000 after the last one given.
        let pids = pidMax <= 65536 ? Array(2...pidMax) : Array(lastPid...(lastPid + 20_000))
        var taken = 0
        for pid in pids {
            for name in ["authdeck-demo-seed-\(pid)", "authdeck-demo-\(pid)"] {
                let path = tmp + "/" + name
                guard mkdir(path, 0o755) == 0 else { continue }
                if geteuid() == 0 { chown(path, 65534, 65534) }
                taken += 1
            }
        }
        #expect(taken == pids.count * 2, "every predictable name is taken first")
        let r = try BinaryRunner(product: "authdeck", environment: environment).run(["demo", "--seed-only"], timeout: 90)
        let pid = r.stdout.split(separator: " ").last.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        defer { if let pid { kill(pid, SIGTERM) } }
        #expect(r.status == 0, "\(r.stderr)")
        let store = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("store ") }?.dropFirst("store ".count), "\(r.stdout)")
        let directory = (String(store) as NSString).deletingLastPathComponent
        let name = (directory as NSString).lastPathComponent
        #expect(name.hasPrefix("authdeck-demo-seed-") && name.split(separator: "-").count == 5, "a name of its own: \(name)")
        var st = stat()
        #expect(lstat(directory, &st) == 0 && st.st_uid == geteuid() && st.st_mode & 0o777 == 0o700 && st.st_mode & S_IFMT == S_IFDIR)
        #expect(FileManager.default.fileExists(atPath: String(store)))
        #expect(r.stdout.contains("remove kill \(pid ?? 0); rm -r \(directory)\n"), "\(r.stdout)")
    }

    /// A demo killed together with its emulator (`kill -9` of both) leaves its directory; the
    /// next demo sweeps it (the running demo's own is kept: `openDemo` finds exactly one).
    @Test func theNextDemoSweepsWhatADeadDemoLeft() throws {
        let dead = tmp + "/authdeck-demo-999999999"   // above pid_max: no such process
        try FileManager.default.createDirectory(atPath: dead, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dead + "/authdeck.db", contents: Data("x".utf8))
        let (s, demo, emulator) = try openDemo()
        #expect(!FileManager.default.fileExists(atPath: dead), "a dead demo's directory is swept")
        try s.send("q")
        try expectNothingLeft(demo: demo, emulator: emulator, after: "q")
    }
}
