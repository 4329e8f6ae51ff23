import Testing
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore
import AuthDeckPlatform
import AuthDeckTestSupport

/// The real binaries on a machine reached over SSH (issue 43): with `AUTHDECK_AGENT` set,
/// `token`, `cookies` and the git, kubectl and docker helpers answer through the agent's socket
/// in the very forms the local commands print, and never open or create a store or key here.
/// Refusals, a silent agent and a gone one end in exit 3 with a sentence naming the socket,
/// never a hang. The agent is a scripted one (`ScriptedAgent`); the real agent over real sshd
/// is `RemoteSSHJourneyTests`.
@Suite(.serialized)
final class RemoteModeTests {
    let home = TempDirectory("authdeck-remote")
    let agent: ScriptedAgent
    let runner: BinaryRunner
    let expiry = Int64(Date().timeIntervalSince1970) + 3600

    init() throws {
        agent = try ScriptedAgent(path: home.file("agent/agent.sock"))
        runner = BinaryRunner.authdeck(home: home, ["AUTHDECK_AGENT": agent.path])
    }

    /// Each test's agent stops with it: its serving thread holds it, so its own deinit never
    /// comes, and three of four tests left a thread polling a socket for the rest of the run.
    deinit { agent.stop() }

    /// Nothing of a store, a key or a config was made in this home.
    func expectNothingLocal() {
        for made in ["data/authdeck", "config/authdeck", ".local/share/authdeck"] {
            #expect(!FileManager.default.fileExists(atPath: home.file(made)), "\(made) was created")
        }
    }

    @Test func tokenAndTheHelpersAnswerThroughTheAgent() throws {
        agent.answer("token", [("status", "ok"), ("access_token", "at.remote-1"), ("token_type", "Bearer"), ("expires_at", "\(expiry)"),
                               ("scope", "api://x/.default"), ("account", "work/0000abcd"), ("provider", "work"), ("username", "taro@contoso.com")])
        // The front's plain form.
        let plain = try runner.run(["token", "work", "--scope", "api://x/.default"])
        #expect(plain.status == 0 && plain.stdout == "at.remote-1\n", "\(plain.status) \(plain.stderr)")
        let asked = try #require(agent.requests.last)
        #expect(asked["op"] == "token" && asked["account"] == "work" && asked.values("scope") == ["api://x/.default"])
        #expect(asked["client"] == "token" && asked["timeout"] == "120" && asked["v"] == "1", "\(asked)")
        #expect(asked["host"]?.isEmpty == false, "the machine's name, claimed")
        // --timeout bounds the wait, and is what the agent is told.
        #expect(try runner.run(["token", "work", "--timeout", "45s"]).status == 0)
        #expect(agent.requests.last?["timeout"] == "45")
        #expect(try runner.run(["token", "work"], env: ["AUTHDECK_AGENT_TIMEOUT": "3m"]).status == 0)
        #expect(agent.requests.last?["timeout"] == "180")
        // authdeck-full's forms: JSON with what a script checks, and xoauth2.
        let json = try runner.run(["token", "work", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["access_token"] as? String == "at.remote-1" && object["account"] as? String == "work/0000abcd")
        #expect(object["username"] as? String == "taro@contoso.com" && object["scopes"] as? [String] == ["api://x/.default"])
        #expect(object["expires_at"] as? String == Instant(secondsSinceEpoch: expiry).iso8601)
        #expect(((object["expires_in_seconds"] as? Int) ?? 0) > 3500)
        let xoauth2 = try runner.run(["token", "work", "--format", "xoauth2"])
        #expect(xoauth2.stdout == Data("user=taro@contoso.com\u{1}auth=Bearer at.remote-1\u{1}\u{1}".utf8).base64EncodedString() + "\n", "\(xoauth2.stderr)")

        // git's helper: key=value lines for the URL git asked about.
        agent.answer("git", [("status", "ok"), ("username", "taro@contoso.com"), ("password", "at.git-2"), ("expires_at", "\(expiry)")])
        let git = try runner.run(["git-credential", "get"], stdin: "protocol=https\nhost=git.example.org\npath=team/repo.git\n\n")
        #expect(git.status == 0 && git.stdout == "username=taro@contoso.com\npassword=at.git-2\npassword_expiry_utc=\(expiry)\n", "\(git.stdout) \(git.stderr)")
        #expect(agent.requests.last?["op"] == "git" && agent.requests.last?["url"] == "https://git.example.org/team/repo.git")
        #expect(agent.requests.last?["client"] == "git-credential")
        #expect(try runner.run(["git-credential", "store"], stdin: "protocol=https\nhost=git.example.org\n\n").status == 0)

        // kubectl's plugin: an ExecCredential, v1beta1 when kubectl asks for it.
        agent.answer("kube", [("status", "ok"), ("access_token", "at.kube-3"), ("expires_at", "\(expiry)")])
        let kube = try runner.run(["kube-credential", "work", "--scope", "aks/.default"])
        let stamp = Instant(secondsSinceEpoch: expiry).iso8601
        #expect(kube.stdout == #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"expirationTimestamp":"\#(stamp)","token":"at.kube-3"}}"# + "\n",
                "\(kube.stdout) \(kube.stderr)")
        #expect(agent.requests.last?["op"] == "kube" && agent.requests.last?.values("scope") == ["aks/.default"])
        let beta = try runner.run(["kube-credential", "work"], env: ["KUBERNETES_EXEC_INFO": #"{"apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":false}}"#])
        #expect(beta.stdout.contains("\"client.authentication.k8s.io/v1beta1\"") && beta.stdout.contains("at.kube-3"), "\(beta.stderr)")

        // docker's helper (as docker-credential and through the link docker runs).
        agent.answer("docker", [("status", "ok"), ("server_url", "registry.example.org"), ("username", "taro"), ("secret", "at.docker-4")])
        let docker = try runner.run(["docker-credential", "get"], stdin: "registry.example.org\n")
        #expect(docker.status == 0 && docker.stdout == #"{"Secret":"at.docker-4","ServerURL":"registry.example.org","Username":"taro"}"# + "\n", "\(docker.stderr)")
        #expect(agent.requests.last?["op"] == "docker" && agent.requests.last?["server"] == "registry.example.org")

        // cookies: only a Cookie header crosses the socket.
        agent.answer("cookies", [("status", "ok"), ("cookie_header", "FedAuth=abc; rtFa=def"), ("account", "intranet/1"), ("provider", "intranet")])
        let header = try runner.run(["cookies", "intranet", "--format", "header", "--timeout", "1m"])
        #expect(header.status == 0 && header.stdout == "Cookie: FedAuth=abc; rtFa=def\n", "\(header.stderr)")
        #expect(agent.requests.last?["op"] == "cookies" && agent.requests.last?["timeout"] == "60")
        let jar = try runner.run(["cookies", "intranet"])
        #expect(jar.status == 2 && jar.stderr.contains("--format header") && jar.stdout.isEmpty, "\(jar.stderr)")
        expectNothingLocal()
    }

    @Test func refusalsSilenceAndAGoneAgentEndInASentenceAndExit3() throws {
        agent.answer("token", [("status", "refused"), ("message", "the person denied work to buildhost"), ("exit", "3")])
        let refused = try runner.run(["token", "work"])
        #expect(refused.status == 3 && refused.stdout.isEmpty && refused.stderr == "authdeck: the person denied work to buildhost\n", "\(refused.stderr)")
        let refusedJSON = try runner.run(["token", "work", "--json"])
        #expect(refusedJSON.status == 3 && refusedJSON.stderr.contains("denied"), "\(refusedJSON.stderr)")
        agent.answer("token", [("status", "unavailable"), ("message", "login.example.org timed out; nothing was changed"), ("exit", "4")])
        #expect(try runner.run(["token", "work"]).status == 4)
        // Nothing for git or docker: git asks its next helper, docker gets its words.
        agent.answer("git", [("status", "none")])
        let none = try runner.run(["git-credential", "get"], stdin: "protocol=https\nhost=elsewhere.example\n\n")
        #expect(none.status == 0 && none.stdout.isEmpty)
        agent.answer("docker", [("status", "none")])
        let noDocker = try runner.run(["docker-credential", "get"], stdin: "elsewhere.example\n")
        #expect(noDocker.status == 1 && noDocker.stdout == "credentials not found in native keychain\n")
        // Where git's token would travel in clear, nothing is asked.
        let asked = agent.requests.count
        let clear = try runner.run(["git-credential", "get"], stdin: "protocol=http\nhost=git.example.org\n\n")
        #expect(clear.status == 0 && clear.stdout.isEmpty && clear.stderr.contains("nothing was given to git"), "\(clear.stderr)")
        #expect(agent.requests.count == asked)
        // A bad AUTHDECK_AGENT_TIMEOUT is named.
        let badSpan = try runner.run(["kube-credential", "work"], env: ["AUTHDECK_AGENT_TIMEOUT": "soon"])
        #expect(badSpan.status == 2 && badSpan.stderr.contains("AUTHDECK_AGENT_TIMEOUT=soon"), "\(badSpan.stderr)")

        // An agent that reads the request and never answers: the client's timeout, then exit 3.
        agent.hold(true)
        var started = Date()
        let silent = try runner.run(["token", "work", "--timeout", "1s"], timeout: 20)
        #expect(silent.status == 3 && silent.stderr.contains("no answer from the authdeck agent at \(agent.path)"), "\(silent.stderr)")
        #expect(Date().timeIntervalSince(started) < 8, "waited \(Date().timeIntervalSince(started)) s")
        let silentGit = try runner.run(["git-credential", "get"], env: ["AUTHDECK_AGENT_TIMEOUT": "1s"], stdin: "protocol=https\nhost=git.example.org\n\n", timeout: 20)
        #expect(silentGit.status == 3 && silentGit.stderr.contains("no answer"), "\(silentGit.stderr)")

        // The agent is gone: at once, with the socket named and what to do.
        agent.stop()
        for args in [["token", "work"], ["token", "work", "--json"], ["kube-credential", "work"], ["cookies", "x", "--format", "header"]] {
            started = Date()
            let gone = try runner.run(args, timeout: 20)
            #expect(gone.status == 3 && gone.stderr.contains("no authdeck agent answers at \(agent.path)") && gone.stderr.contains("authdeck ssh"),
                    "\(args): \(gone.status) \(gone.stderr)")
            #expect(Date().timeIntervalSince(started) < 5)
        }
        expectNothingLocal()
    }

    /// `setup-git` with no URL configures the agent's git routes (none of docker's) on a
    /// machine with no config.toml of its own.
    @Test func setupGitTakesTheAgentsRoutes() throws {
        agent.answer("routes", [("status", "ok"),
                                ("url", "https://git.example.org/team"), ("kind", "git"), ("account", "work"), ("scopes", "api://devops/.default"),
                                ("url", "https://registry.example.org"), ("kind", "docker"), ("account", "work"), ("scopes", "")])
        let setup = try runner.run(["setup-git"], env: ["GIT_CONFIG_NOSYSTEM": "1"])
        #expect(setup.status == 0 && setup.stdout.contains("git asks authdeck for https://git.example.org/team"), "\(setup.stdout) \(setup.stderr)")
        let gitconfig = try String(contentsOfFile: home.file(".gitconfig"), encoding: .utf8)
        #expect(gitconfig.contains("[credential \"https://git.example.org/team\"]") && !gitconfig.contains("registry.example.org"), "\(gitconfig)")
        #expect(agent.requests.last?["op"] == "routes")
        // No git route at the agent: said of the agent's config, not of a file here nobody has.
        agent.answer("routes", [("status", "ok"), ("url", "https://registry.example.org"), ("kind", "docker"), ("account", "work"), ("scopes", "")])
        let none = try runner.run(["setup-git"], env: ["GIT_CONFIG_NOSYSTEM": "1"])
        #expect(none.status == 2 && none.stderr.contains("in the config of the agent at ") && !none.stderr.contains("config.toml"), "\(none.stderr)")
        expectNothingLocal()
    }

    /// `authdeck ssh` with no agent running says how to start one, and runs no ssh.
    @Test func sshWithoutAnAgentSaysHowToStartOne() throws {
        let local = BinaryRunner.authdeck(home: home, ["AUTHDECK_AGENT_SOCKET": home.file("nobody/agent.sock")])
        let r = try local.run(["ssh", "buildhost", "--", "true"], timeout: 20)
        #expect(r.status == 3 && r.stderr.contains(home.file("nobody/agent.sock")) && r.stderr.contains("authdeck agent"), "\(r.stderr)")
        let usage = try local.run(["ssh", "-p", "22", "buildhost"])
        #expect(usage.status == 2 && usage.stderr.contains("the host comes first"), "\(usage.stderr)")
    }
}
