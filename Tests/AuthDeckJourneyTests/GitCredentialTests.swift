import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Real git (Debian's) clones and pushes over smart HTTP from a loopback server that takes only
/// a token the emulator issued for its resource (issue 28): git finds authdeck through the
/// config `setup-git` wrote, an expired token is renewed on the way, a token for another
/// audience is refused by the server, and `--remove` undoes the set-up.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/lib/git-core/git-http-backend"),
                             "SKIPPED: git's http-backend is missing (apt-get install git)"))
struct GitCredentialTests {
    static let devops = "499b84ac-1321-427f-aa17-267ca6975798"
    let home = TempDirectory("authdeck-git")
    let idp: EmulatorProcess
    let server: LiveProcess
    let port: Int
    var runner: BinaryRunner
    var gitEnvironment: [String: String] {
        ["HOME": home.path, "XDG_CONFIG_HOME": home.file("config"), "XDG_DATA_HOME": home.file("data"), "PATH": "/usr/bin:/bin",
         "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "taro", "GIT_AUTHOR_EMAIL": "taro@contoso.com",
         "GIT_COMMITTER_NAME": "taro", "GIT_COMMITTER_EMAIL": "taro@contoso.com", "LANG": "C.UTF-8"]
    }

    init() throws {
        idp = try EmulatorProcess()
        let harness = URL(fileURLWithPath: GlewlwydServer.harness).deletingLastPathComponent().appendingPathComponent("git-http").path
        try FileManager.default.createDirectory(atPath: home.file("srv/repos"), withIntermediateDirectories: true)
        server = try LiveProcess(harness, [home.file("srv"), idp.url, Self.devops], environment: ["PATH": "/usr/bin:/bin"])
        port = try server.readyPort("the git server")
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(idp.workAndIntranetTOML() + """
            [[credential]]
            url = "http://127.0.0.1:\(port)/repos"
            account = "work"
            scopes = ["\(Self.devops)/.default"]

            [[credential]]
            url = "http://127.0.0.1:\(port)/repos/other.git"
            account = "work"
            scopes = ["https://contoso.sharepoint.com/.default"]

            """)
        // Two bare repositories with one commit each.
        for name in ["demo", "other"] {
            try git(["init", "-q", "--bare", "-b", "main", home.file("srv/repos/\(name).git")])
            try git(["init", "-q", "-b", "main", home.file("seed-\(name)")])
            try "hello\n".write(toFile: home.file("seed-\(name)/README"), atomically: true, encoding: .utf8)
            try git(["-C", home.file("seed-\(name)"), "add", "README"])
            try git(["-C", home.file("seed-\(name)"), "commit", "-q", "-m", "first"])
            try git(["-C", home.file("seed-\(name)"), "push", "-q", home.file("srv/repos/\(name).git"), "main"])
        }
    }

    @discardableResult
    func git(_ args: [String], expect status: Int32 = 0, stdin: String? = nil) throws -> BinaryRunner.Result {
        let r = try BinaryRunner(executable: "/usr/bin/git", environment: gitEnvironment).run(args, stdin: stdin, timeout: 60)
        #expect(r.status == status, "git \(args.joined(separator: " ")): \(r.status) \(r.stderr)")
        return r
    }

    func login() throws {
        let r = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(r.status == 0, "\(r.stderr)")
    }

    @Test func gitClonesAndPushesWithTheRoutedToken() throws {
        try idp.admin("lifetimes", #"{"access_token":3}"#)
        try login()
        let setup = try runner.run(["setup-git"])
        #expect(setup.status == 0 && setup.stdout.contains("git asks authdeck for http://127.0.0.1:\(port)/repos"), "\(setup.stderr)")
        #expect(try runner.run(["setup-git"]).status == 0, "idempotent")
        let config = try String(contentsOfFile: home.file(".gitconfig"), encoding: .utf8)
        #expect(config.components(separatedBy: "git-credential").count - 1 == 2, "one helper line per URL, after two runs:\n\(config)")
        // The 3-second token expires: the helper renews it on the way.
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        let before = try #require(try store.accounts(includeQuarantined: false).first { $0.account.providerId == "work" })
        try waitUntil("the access token expires", timeout: 15) {
            !(before.credentials.hasUsableCredential(at: SystemClock().now(), skew: .seconds(0)))
        }
        try git(["clone", "-q", "http://127.0.0.1:\(port)/repos/demo.git", home.file("clone")])
        #expect(FileManager.default.fileExists(atPath: home.file("clone/README")))
        let after = try #require(try store.account(id: before.account.id))
        #expect(after.credentials.refreshToken!.generation > before.credentials.refreshToken!.generation, "renewed on the way")
        // A push goes through the same helper.
        try "more\n".write(toFile: home.file("clone/NEW"), atomically: true, encoding: .utf8)
        try git(["-C", home.file("clone"), "add", "NEW"])
        try git(["-C", home.file("clone"), "commit", "-q", "-m", "second"])
        try git(["-C", home.file("clone"), "push", "-q", "origin", "main"])
        let log = try git(["--git-dir", home.file("srv/repos/demo.git"), "log", "--format=%s", "main"]).stdout
        #expect(log == "second\nfirst\n", "\(log)")
        // The longest entry wins: other.git is routed to a SharePoint token, which the server refuses.
        let refused = try git(["clone", "-q", "http://127.0.0.1:\(port)/repos/other.git", home.file("other")], expect: 128)
        #expect(refused.stderr.contains("Authentication failed") || refused.stderr.contains("401"), "\(refused.stderr)")
        // --remove: git no longer asks authdeck.
        #expect(try runner.run(["setup-git", "--remove"]).status == 0)
        #expect(!(try String(contentsOfFile: home.file(".gitconfig"), encoding: .utf8)).contains("git-credential"))
        try git(["clone", "-q", "http://127.0.0.1:\(port)/repos/demo.git", home.file("again")], expect: 128)
    }

    /// From an install path with a space and a quote (issue 38), `setup-git` writes a helper
    /// git runs — `!'…/my tools/it'\''s/authdeck' git-credential`: a value starting with `'`
    /// git reads as `git credential-'…'`, which never runs. Real `git credential fill` and a
    /// clone get the routed token through it.
    @Test func setupGitFromAPathWithASpaceWritesAHelperGitRuns() throws {
        try login()
        let bin = home.file("my tools/it's")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let built = URL(fileURLWithPath: runner.executable).deletingLastPathComponent().path
        for name in ["authdeck", "authdeck-full"] { try FileManager.default.copyItem(atPath: built + "/" + name, toPath: bin + "/" + name) }
        let setup = try BinaryRunner(executable: bin + "/authdeck", environment: runner.environment).run(["setup-git"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let helpers = try git(["config", "--global", "--get-all", "credential.http://127.0.0.1:\(port)/repos.helper"]).stdout
        #expect(helpers == "!'\(home.path)/my tools/it'\\''s/authdeck' git-credential\n", "\(helpers)")
        let fill = try git(["credential", "fill"], stdin: "url=http://127.0.0.1:\(port)/repos/demo.git\n\n")
        #expect(fill.stdout.contains("username=taro@contoso.com\npassword=at."), "\(fill.stdout) \(fill.stderr)")
        try git(["clone", "-q", "http://127.0.0.1:\(port)/repos/demo.git", home.file("clone")])
        #expect(FileManager.default.fileExists(atPath: home.file("clone/README")))
        // Run again from the build directory: its plain helper line replaces the quoted one.
        #expect(try runner.run(["setup-git"]).status == 0)
        let replaced = try git(["config", "--global", "--get-all", "credential.http://127.0.0.1:\(port)/repos.helper"]).stdout
        #expect(replaced.components(separatedBy: "\n").count == 2 && !replaced.hasPrefix("!"), "\(replaced)")
    }

    /// The protocol at the edges: a URL no entry covers gets nothing (git asks its next
    /// helper); store and erase change nothing; an entry whose account is gone says so, naming
    /// the entry, on stderr only.
    @Test func theHelperAnswersOnlyForItsURLs() throws {
        try login()
        func helper(_ op: String, _ input: String) throws -> BinaryRunner.Result {
            try runner.run(["git-credential", op], stdin: input)
        }
        let other = try helper("get", "protocol=https\nhost=example.org\n\n")
        #expect(other.status == 0 && other.stdout.isEmpty, "\(other.stdout)")
        let mine = try helper("get", "protocol=http\nhost=127.0.0.1:\(port)\npath=repos/demo.git\n\n")
        #expect(mine.status == 0 && mine.stdout.hasPrefix("username=taro@contoso.com\npassword=at."), "\(mine.stdout) \(mine.stderr)")
        #expect(mine.stdout.contains("password_expiry_utc="))
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        let before = try store.accounts(includeQuarantined: false)
        #expect(try helper("erase", "protocol=http\nhost=127.0.0.1:\(port)\npath=repos/demo.git\npassword=x\n\n").status == 0)
        #expect(try helper("store", "protocol=http\nhost=127.0.0.1:\(port)\npassword=x\n\n").status == 0)
        #expect(try store.accounts(includeQuarantined: false) == before, "erase and store touch nothing")
        // Signed out: the entry's account matches nothing, said with the file, entry and key.
        #expect(try runner.run(["logout", "work", "--local"]).status == 0)
        let gone = try helper("get", "protocol=http\nhost=127.0.0.1:\(port)\npath=repos/demo.git\n\n")
        #expect(gone.status == 0 && gone.stdout.isEmpty, "\(gone.stdout)")
        #expect(gone.stderr.contains("config.toml: [[credential]] url \"http://127.0.0.1:\(port)/repos\": account: no account matches \"work\""), "\(gone.stderr)")
    }

    /// A username with a line break would add attributes of its own to git's answer
    /// (`url=`, `password=`): nothing is answered, and the URL in the message is inert.
    @Test func aLineBreakInTheUsernameAnswersNothing() throws {
        try login()
        try home.writeConfig(idp.workAndIntranetTOML() + """
            [[credential]]
            url = "http://127.0.0.1:\(port)/repos"
            account = "work"
            username = "taro\\nurl=https://evil.example"

            """)
        let r = try runner.run(["git-credential", "get"], stdin: "protocol=http\nhost=127.0.0.1:\(port)\npath=repos/demo.git\n\n")
        #expect(r.status == 0 && r.stdout.isEmpty, "\(r.stdout)")
        #expect(r.stderr.contains("holds a line break; nothing was given to git"), "\(r.stderr)")
    }
}
