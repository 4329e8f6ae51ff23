import Testing
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckTestSupport

/// The remote journey through real OpenSSH (issue 43): Debian's sshd on a loopback port with a
/// throwaway host key and its own config, a throwaway user with a throwaway key, the real
/// `authdeck agent` here with an `[[agent]]` allow, and `authdeck ssh` into it. On the remote
/// side, as that user and with no store: `authdeck token`, a real `git clone` from the test git
/// server through `setup-git` done there, and real `kubectl` against the test API server through
/// `setup-kube` done there. Afterwards the user's home and /tmp hold no store, no key and none
/// of the refresh tokens' bytes, and the forwarded socket is gone. With the agent stopped in the
/// middle of a session, the remote `authdeck token` ends at once with exit 3 and the sentence.
///
/// Root only (it makes a user and runs sshd, which must be root to switch to it): CI and the
/// developers' machines run as root; elsewhere it is skipped, saying so.
@Suite(.serialized, .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd")
                             && FileManager.default.isExecutableFile(atPath: "/usr/bin/kubectl")
                             && FileManager.default.isExecutableFile(atPath: "/usr/lib/git-core/git-http-backend"),
                             "SKIPPED: needs root, sshd (scripts/deps test installs openssh-server), kubectl and git's http-backend"))
struct RemoteSSHJourneyTests {
    static let devops = "499b84ac-1321-427f-aa17-267ca6975798"
    static let aks = "6dae42f8-4368-4678-94ff-3960e28e3630"
    static let sshd = "/usr/sbin/sshd"

    let home = TempDirectory("authdeck-ssh")
    let idp: EmulatorProcess
    let gitServer: LiveProcess
    let kubeAPI: LiveProcess
    let gitPort: Int
    let kubePort: Int
    let runner: BinaryRunner
    let user: RemoteUser
    /// sshd's listener, started detached through sh (its pid kept to stop it): run as a child of
    /// the test process, the next process the test ran was never seen to exit by Foundation.
    let sshd: DetachedProcess
    let sshPort: Int

    init() throws {
        idp = try EmulatorProcess()
        let harness = URL(fileURLWithPath: GlewlwydServer.harness).deletingLastPathComponent()
        try FileManager.default.createDirectory(atPath: home.file("srv/repos"), withIntermediateDirectories: true)
        gitServer = try LiveProcess(harness.appendingPathComponent("git-http").path, [home.file("srv"), idp.url, Self.devops], environment: ["PATH": "/usr/bin:/bin"])
        gitPort = try gitServer.readyPort("the git server")
        let cert = home.file("api.pem"), key = home.file("api.key")
        let openssl = try BinaryRunner(executable: "/usr/bin/openssl", environment: ["PATH": "/usr/bin:/bin"]).run(
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        try #require(openssl.status == 0, "\(openssl.stderr)")
        kubeAPI = try LiveProcess(harness.appendingPathComponent("kube-api").path, [cert, key, idp.url, Self.aks], environment: ["PATH": "/usr/bin:/bin"])
        kubePort = try kubeAPI.readyPort("the API stub")

        // The person's machine: a store with a signed-in account, the git route, a standing allow.
        mkdir(home.file("run"), 0o700)
        runner = BinaryRunner.authdeck(home: home, ["XDG_RUNTIME_DIR": home.file("run")])
        try home.writeConfig(idp.workAndIntranetTOML() + """
            [[credential]]
            url = "http://127.0.0.1:\(gitPort)/repos"
            account = "work"
            scopes = ["\(Self.devops)/.default"]

            [[agent]]
            host = "*"
            accounts = ["work"]

            """)
        let seed = try BinaryRunner(executable: "/usr/bin/git", environment: ["HOME": home.path, "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"])
        for args in [["init", "-q", "--bare", "-b", "main", home.file("srv/repos/demo.git")], ["init", "-q", "-b", "main", home.file("seed")]] {
            try #require(try seed.run(args).status == 0)
        }
        try "hello from the server\n".write(toFile: home.file("seed/README"), atomically: true, encoding: .utf8)
        for args in [["-C", home.file("seed"), "add", "README"], ["-C", home.file("seed"), "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "first"],
                     ["-C", home.file("seed"), "push", "-q", home.file("srv/repos/demo.git"), "main"]] {
            let r = try seed.run(args)
            try #require(r.status == 0, "\(args): \(r.stderr)")
        }

        // The remote machine: a throwaway user, key and host key, and sshd of its own config.
        user = try RemoteUser()
        for name in ["hostkey", "userkey"] {
            let r = try BinaryRunner(executable: "/usr/bin/ssh-keygen", environment: ["PATH": "/usr/bin:/bin"]).run(["-q", "-t", "ed25519", "-N", "", "-f", home.file(name)])
            try #require(r.status == 0, "\(r.stderr)")
        }
        try user.authorize(try String(contentsOfFile: home.file("userkey.pub"), encoding: .utf8))
        try user.give(home.file("api.pem"), as: "api.pem")
        mkdir("/run/sshd", 0o755)  // sshd's privilege-separation directory (Debian's package makes it at boot)
        sshPort = Int(FreePort.pick())
        try """
            Port \(sshPort)
            ListenAddress 127.0.0.1
            HostKey \(home.file("hostkey"))
            PidFile none
            UsePAM no
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            AuthorizedKeysFile .ssh/authorized_keys
            AllowUsers \(user.name)
            AllowStreamLocalForwarding yes
            PermitUserEnvironment no
            """.write(toFile: home.file("sshd_config"), atomically: true, encoding: .utf8)
        let started = try BinaryRunner(executable: "/bin/sh", environment: ["PATH": "/usr/bin:/bin"]).run(
            ["-c", "\(Self.sshd) -D -e -f '\(home.file("sshd_config"))' </dev/null >'\(home.file("sshd.log"))' 2>&1 & echo $!"])
        sshd = DetachedProcess(pid: try #require(pid_t(started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(started.stderr)"))
        try waitUntil("sshd listens", timeout: 20) { sshdLog.contains("Server listening on 127.0.0.1") }
    }

    var sshdLog: String { (try? String(contentsOfFile: home.file("sshd.log"), encoding: .utf8)) ?? "" }

    /// `authdeck ssh` into the loopback sshd as the throwaway user, running `script` there.
    func ssh(_ script: String) -> [String] {
        ["ssh", "\(user.name)@127.0.0.1", "-p", "\(sshPort)", "-i", home.file("userkey"), "-F", "/dev/null",
         "-o", "UserKnownHostsFile=\(home.file("known_hosts"))", "-o", "StrictHostKeyChecking=accept-new", "-o", "BatchMode=yes",
         "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR", "-T", "--", script]
    }

    /// The agent, started as a person would, once its socket answers.
    func startAgent() throws -> LiveProcess {
        let agent = try LiveProcess(runner.executable, ["agent"], environment: runner.environment)
        _ = try agent.waitFor(timeout: 20, "the agent listening") { $0.contains("listening at") ? true : nil }
        return agent
    }

    /// The remote user's shell script: the built front, a PATH without /usr/local, git that
    /// never prompts, and a kubeconfig of its own.
    var remotePrelude: String {
        """
        set -e; A='\(runner.executable)'; export PATH=/usr/bin:/bin GIT_TERMINAL_PROMPT=0 GIT_CONFIG_NOSYSTEM=1 KUBECONFIG="$HOME/kubeconfig"
        """
    }

    @Test func theRemoteSideWorksThroughTheForwardedAgentAndKeepsNothing() throws {
        let login = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(login.status == 0, "\(login.stderr)")
        let agent = try startAgent()
        defer { kill(agent.pid, SIGTERM); _ = try? agent.wait(timeout: 10) }

        let script = remotePrelude + """

            echo "agent=$AUTHDECK_AGENT"
            echo "token=$("$A" token work)"
            "$A" setup-git
            git clone -q http://127.0.0.1:\(gitPort)/repos/demo.git "$HOME/clone"
            echo "readme=$(cat "$HOME/clone/README")"
            kubectl config set-cluster test --server=https://127.0.0.1:\(kubePort) --certificate-authority="$HOME/api.pem" >/dev/null
            "$A" setup-kube --user dev work --scope \(Self.aks)/.default
            kubectl config set-context test --cluster=test --user=dev >/dev/null
            kubectl config use-context test >/dev/null
            kubectl get --raw /api
            """
        let r = try runner.run(ssh(script), timeout: 120)
        #expect(r.status == 0, "\(r.status)\n\(r.stdout)\n\(r.stderr)\nsshd: \(sshdLog)\nagent: \(agent.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let forwarded = try #require(lines.first { $0.hasPrefix("agent=") }.map { String($0.dropFirst(6)) })
        #expect(forwarded.hasPrefix("/tmp/authdeck-agent-") && forwarded.hasSuffix(".sock"), "\(forwarded)")
        #expect(lines.contains { $0.hasPrefix("token=at.") }, "\(r.stdout)")
        #expect(lines.contains("readme=hello from the server"), "\(r.stdout) \(r.stderr)")
        #expect(r.stdout.contains("APIVersions"), "\(r.stdout) \(r.stderr)")
        #expect(r.stdout.contains("git asks authdeck for http://127.0.0.1:\(gitPort)/repos"), "\(r.stdout)")

        // What the remote side keeps: no store, no key, none of the refresh tokens' bytes.
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        let refreshTokens = try store.accounts().compactMap { try store.account(id: $0.account.id)?.credentials.refreshToken?.value.exposedValue }
        try #require(!refreshTokens.isEmpty)
        let left = user.files()
        #expect(!left.contains { $0.hasSuffix("authdeck.db") || $0.hasSuffix(".key") || $0.contains("/authdeck/") && !$0.contains("/clone/") }, "\(left)")
        for file in left {
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            for token in refreshTokens {
                #expect(bytes.range(of: Data(token.utf8)) == nil, "\(file) holds a refresh token")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: forwarded), "the forwarded socket \(forwarded) is left behind")
        #expect(agent.stderr.isEmpty || !refreshTokens.contains { agent.stderr.contains($0) })
    }

    @Test func anAgentGoneInTheMiddleOfASessionIsSaidAtOnce() throws {
        let login = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(login.status == 0, "\(login.stderr)")
        let agent = try startAgent()
        defer { kill(agent.pid, SIGKILL); _ = try? agent.wait(timeout: 10) }
        let flag = user.home + "/go"
        let script = remotePrelude + """

            "$A" token work >/dev/null && echo first-ok
            while [ ! -e '\(flag)' ]; do sleep 0.05; done
            set +e
            start=$(date +%s%N); "$A" token work; rc=$?; end=$(date +%s%N)
            echo "rc=$rc ms=$(( (end - start) / 1000000 ))"
            """
        let session = try LiveProcess(runner.executable, ssh(script), environment: runner.environment)
        defer { if session.pid > 0 { kill(session.pid, SIGTERM) } }
        _ = try session.waitFor(timeout: 60, "the first token") { $0.contains("first-ok") ? true : nil }
        kill(agent.pid, SIGKILL)
        _ = try agent.wait(timeout: 10)
        FileManager.default.createFile(atPath: flag, contents: nil)
        let status = try session.wait(timeout: 60)
        #expect(status == 0, "\(session.stdout) \(session.stderr)")
        let said = session.stdout.split(separator: "\n").first { $0.hasPrefix("rc=") }.map(String.init) ?? ""
        #expect(said.hasPrefix("rc=3 "), "\(session.stdout) \(session.stderr)")
        let ms = Int(said.split(separator: "=").last ?? "") ?? .max
        #expect(ms < 3000, "the remote token took \(ms) ms to give up")
        #expect(session.stderr.contains("authdeck agent") && session.stderr.contains("/tmp/authdeck-agent-"), "\(session.stderr)")
    }
}

/// A throwaway local user for sshd to log in as, with a home of its own; removed (home and
/// all) when released.
final class RemoteUser: Sendable {
    let name: String
    let home: String
    let uid: uid_t

    init() throws {
        name = "adssh" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        home = "/home/" + name
        // `-p '*'`: no password, and not locked (sshd refuses a locked account without PAM).
        let made = try BinaryRunner(executable: "/usr/sbin/useradd", environment: ["PATH": "/usr/sbin:/usr/bin:/bin"])
            .run(["-m", "-d", home, "-s", "/bin/sh", "-p", "*", name])
        guard made.status == 0, let entry = getpwnam(name) else { throw RemoteUserError(what: "useradd \(name): \(made.stderr)") }
        uid = entry.pointee.pw_uid
    }

    /// Installs `key` as the user's only authorized key (the modes sshd's StrictModes wants).
    func authorize(_ key: String) throws {
        let dir = home + "/.ssh"
        mkdir(dir, 0o700)
        try key.write(toFile: dir + "/authorized_keys", atomically: true, encoding: .utf8)
        chmod(dir + "/authorized_keys", 0o600)
        for path in [dir, dir + "/authorized_keys"] { chown(path, uid, uid) }
    }

    /// Copies `file` into the user's home as `name`, the user's own.
    func give(_ file: String, as name: String) throws {
        try FileManager.default.copyItem(atPath: file, toPath: home + "/" + name)
        chown(home + "/" + name, uid, uid)
    }

    /// Every regular file and socket the user has in its home and in /tmp.
    func files() -> [String] {
        var out: [String] = []
        for root in [home, "/tmp"] {
            guard let walk = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walk.nextObject() as? String {
                let path = root + "/" + relative
                var info = stat()
                guard lstat(path, &info) == 0, info.st_uid == uid else {
                    if root == "/tmp" { walk.skipDescendants() }
                    continue
                }
                let type = info.st_mode & S_IFMT
                if type == S_IFREG || type == S_IFSOCK { out.append(path) }
            }
        }
        return out
    }

    deinit {
        _ = try? BinaryRunner(executable: "/usr/sbin/userdel", environment: ["PATH": "/usr/sbin:/usr/bin:/bin"]).run(["-r", "-f", name])
    }
}

struct RemoteUserError: Error, CustomStringConvertible {
    var what: String
    var description: String { what }
}

/// A process started detached (not this process's child), stopped by pid when released.
final class DetachedProcess: Sendable {
    let pid: pid_t
    init(pid: pid_t) { self.pid = pid }
    deinit { kill(pid, SIGTERM) }
}
