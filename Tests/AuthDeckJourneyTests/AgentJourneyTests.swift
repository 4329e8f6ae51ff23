import Testing
import Foundation
import AuthDeckCore
import AuthDeckPlatform
import AuthDeckTestSupport

/// The real `authdeck agent` with the emulator: a client on its socket (the test's own
/// `AgentConnection`, as a forwarded remote would speak) gets a token an `[[agent]]` entry
/// allows; an entry that expired and a `confirm_command` that says deny give nothing; the
/// events say who got what; a second agent is refused; SIGTERM removes the socket.
@Suite(.serialized) struct AgentJourneyTests {
    let home = TempDirectory("authdeck-agent")
    let idp: EmulatorProcess
    let runner: BinaryRunner
    var socket: String { home.file("run/agent.sock") }

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home)
        // The person's confirmation: a program that writes what it was told and says deny.
        let script = home.file("confirm.sh")
        try """
            #!/bin/sh
            env | grep -E '^AUTHDECK|TOKEN|SECRET' | sort > "\(home.file("confirm.env"))"
            echo deny
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o700)
        try home.writeConfig(idp.workAndIntranetTOML() + """

            [[agent]]
            host = "build*"
            accounts = ["work"]

            [[agent]]
            host = "old*"
            accounts = ["work"]
            expires = 2020-01-01T00:00:00Z

            [agent_confirm]
            command = "\(script)"
            """)
    }

    func ask(_ pairs: [(String, String)]) throws -> AgentMessage {
        let connection = try AgentSocket.connect(socket, timeout: 2)
        defer { connection.close() }
        try connection.send(AgentMessage(pairs), timeout: 2)
        return try connection.receive(timeout: 20)
    }

    @Test func theAgentAnswersAllowsRefusesAndLeavesNothingBehind() throws {
        let login = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"], env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        try #require(login.status == 0, "\(login.stderr)")
        let local = try runner.run(["token", "work"])
        try #require(local.status == 0, "\(local.stderr)")
        let env = runner.environment.merging(["AUTHDECK_AGENT_SOCKET": socket]) { _, new in new }
        let agent = try LiveProcess(runner.executable, ["agent"], environment: env)
        defer { if agent.pid > 0 { kill(agent.pid, SIGKILL) } }
        _ = try agent.waitFor("the agent to listen") { $0.contains("listening at \(socket)") ? true : nil }
        var info = stat()
        #expect(stat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600, "the socket is the user's alone")

        let allowed = try ask([("op", "token"), ("account", "work"), ("host", "build7"), ("client", "token")])
        #expect(allowed["status"] == "ok", "\(allowed)")
        #expect(allowed["access_token"] == local.stdout.trimmingCharacters(in: .newlines), "the same token `authdeck token` gives")
        #expect(allowed["username"] == "taro@contoso.com" && allowed["expires_at"] != nil)

        let lapsed = try ask([("op", "token"), ("account", "work"), ("host", "old1"), ("client", "token"), ("timeout", "10")])
        #expect(lapsed["status"] == "refused" && lapsed["exit"] == "3", "\(lapsed)")
        #expect(lapsed["message"]?.contains("[[agent]] #2") == true && lapsed["message"]?.contains("expired") == true, "\(lapsed)")
        #expect(lapsed["access_token"] == nil)

        let denied = try ask([("op", "token"), ("account", "work"), ("host", "stranger"), ("client", "git-credential"), ("timeout", "10")])
        #expect(denied["status"] == "refused" && denied["message"]?.contains("denied") == true, "\(denied)")
        let told = try String(contentsOfFile: home.file("confirm.env"), encoding: .utf8)
        #expect(told.contains("AUTHDECK_AGENT_HOST=stranger (as it says)") && told.contains("AUTHDECK_AGENT_ACCOUNT=work/taro@contoso.com"), "\(told)")
        #expect(told.contains("AUTHDECK_AGENT_CLIENT=git-credential"), "\(told)")
        #expect(!told.contains(allowed["access_token"] ?? "-"), "no secret in the confirm command's environment")

        let events = try runner.run(["events"])
        #expect(events.status == 0)
        #expect(events.stdout.contains("agent handed build7 (as it says) a token of"), "\(events.stdout)")
        #expect(events.stdout.contains("agent refused stranger (as it says)") && events.stdout.contains("agent refused old1 (as it says)"), "\(events.stdout)")
        #expect(!events.stdout.contains(allowed["access_token"] ?? "-"), "the events hold no token")

        let second = try runner.run(["agent"], env: ["AUTHDECK_AGENT_SOCKET": socket], timeout: 20)
        #expect(second.status == 1 && second.stderr.contains("already answers at \(socket)"), "\(second.stderr)")
        #expect(try ask([("op", "token"), ("account", "work"), ("host", "build7")])["status"] == "ok", "the first agent still answers")

        kill(agent.pid, SIGTERM)
        #expect(try agent.wait(timeout: 10) == 0, "\(agent.stderr)")
        #expect(access(socket, F_OK) != 0, "SIGTERM removed the socket")
    }
}
