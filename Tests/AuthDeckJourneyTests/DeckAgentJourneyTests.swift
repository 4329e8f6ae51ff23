import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckTestSupport

/// The open deck is an agent (issue 43, A3), the real binary in tmux on an emulator store: a
/// client on the deck's socket (the test's own `AgentConnection`, as a forwarded remote speaks)
/// asks for a token; the deck's window names the host and the account; `d` refuses it (exit 3),
/// `o` hands the token over; the detail pane then says which host holds it until when, and
/// closing the deck removes its socket. A second deck on the same socket serves nothing, and
/// says so.
@Suite(.serialized) struct DeckAgentJourneyTests {
    let home = TempDirectory("authdeck-deckagent")
    var socket: String { home.file("run/agent.sock") }
    var environment: [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"),
         "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "AUTHDECK_AGENT_SOCKET": socket]
    }
    var binary: String { BinaryRunner(product: "authdeck", environment: [:]).executable }

    /// One request on the deck's socket, answered on a thread of its own (the deck's window
    /// waits for a key meanwhile).
    final class Request: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var result: Result<AgentMessage, AgentSocketError>?

        init(_ socket: String, _ pairs: [(String, String)]) {
            Thread.detachNewThread { [self] in
                do throws(AgentSocketError) {
                    let connection = try AgentSocket.connect(socket, timeout: 2)
                    defer { connection.close() }
                    try connection.send(AgentMessage(pairs), timeout: 2)
                    result = .success(try connection.receive(timeout: 40))
                } catch {
                    result = .failure(error)
                }
                done.signal()
            }
        }

        /// The answer, waited for at most `timeout` seconds.
        func answer(timeout: Double = 40) throws -> AgentMessage {
            guard done.wait(timeout: .now() + timeout) == .success, let result else { throw AgentSocketError.timedOut("waiting for the deck's answer") }
            return try result.get()
        }
    }

    @Test func aDenyRefusesAnAllowHandsTheTokenOverAndTheDetailPaneShowsTheHost() throws {
        let idp = try EmulatorProcess()
        try home.writeConfig("clock_skew = \"0s\"\n" + idp.workAndIntranetTOML(flow: "device", renewBefore: "0s"))
        var runner = BinaryRunner(product: "authdeck", environment: environment)
        runner.environment["AUTHDECK_PASSWORD"] = "taro-pass-123"
        let login = try runner.run(["login", "work", "--password", "--username", "taro@contoso.com"])
        try #require(login.status == 0, "\(login.stderr)")

        let s = try TmuxSession(environment: environment, command: "\(binary); echo EXIT=$?")
        try s.waitFor(text: "PROVIDERS")
        try waitUntil("the deck to listen at \(socket)") { FileManager.default.fileExists(atPath: socket) }
        var info = stat()
        #expect(stat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600, "the socket is the user's alone")
        let ask: [(String, String)] = [("op", "token"), ("account", "work"), ("host", "buildhost"), ("client", "token"), ("timeout", "30")]

        // Denied: the window names the claimed host and the account; d refuses.
        let first = Request(socket, ask)
        let window = try s.waitFor(text: "A host asks for a credential")
        #expect(window.contains("host     buildhost, as it says") && window.contains("account  work/taro@contoso.com"), "\(window)")
        #expect(window.contains("client   token") && window.contains("o allow once · d deny"), "\(window)")
        try s.send("d")
        let refused = try first.answer()
        #expect(refused["status"] == "refused" && refused["exit"] == "3", "\(refused)")
        #expect(refused["access_token"] == nil)
        try s.waitFor(text: "Denied work/taro@contoso.com to buildhost, as it says.")

        // Allowed once: the token, the one `authdeck token` gives.
        let second = Request(socket, ask)
        try s.waitFor(text: "A host asks for a credential")
        try s.send("o")
        let allowed = try second.answer()
        #expect(allowed["status"] == "ok", "\(allowed)")
        let local = try runner.run(["token", "work"])
        #expect(allowed["access_token"] == local.stdout.trimmingCharacters(in: .newlines) && allowed["access_token"]?.isEmpty == false)

        // Which host holds it until when: the work account's detail pane, and a mark on its row.
        try s.send("/")
        try s.send(literal: "taro")
        try s.send("Enter")
        let shown = try s.waitFor("the host in the detail pane") { $0.contains("held by buildhost, as it says — in ") }
        #expect(shown.split(separator: "\n").contains { $0.contains("taro@contoso.com ⇄") }, "\(shown)")
        #expect(!shown.contains(allowed["access_token"] ?? "-"), "no token on screen")

        // A second deck on the same socket serves nothing and says so; the first keeps it.
        let other = try TmuxSession(environment: environment, command: "\(binary); echo EXIT=$?")
        try other.waitFor(text: "An authdeck agent already answers at \(socket): this deck serves no hosts.")
        #expect(FileManager.default.fileExists(atPath: socket), "the second deck left the first one's socket alone")

        // The first deck closes while the second stays open: the second takes the socket over
        // (it tries every 10 s) and says so, rather than leave hosts with no agent.
        try s.send("q")
        try s.waitFor(text: "EXIT=0")
        try other.waitFor(text: "this deck serves hosts now.", timeout: 25)
        #expect(FileManager.default.fileExists(atPath: socket), "the second deck serves the socket")
        try other.send("q")
        try other.waitFor(text: "EXIT=0")
        try waitUntil("the socket removed") { !FileManager.default.fileExists(atPath: socket) }
        // A client finds no agent now: a clear error, not a hang.
        #expect(throws: AgentSocketError.self) { try AgentSocket.connect(socket, timeout: 1) }
    }
}
