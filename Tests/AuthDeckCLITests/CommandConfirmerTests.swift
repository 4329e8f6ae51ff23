import Testing
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import AuthDeckApp
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// `[agent_confirm] command`: its first word is the answer, anything else a deny; a command
/// that hangs is killed with everything it started; the host's words reach it inert.
struct CommandConfirmerTests {
    static func ask(host: String) -> AgentAsk {
        AgentAsk(host: host, hostClaimed: true, session: nil, accountId: "work/a", accountName: "work/taro", audience: "https://graph/.default", client: "token")
    }

    /// The command: `/bin/sh` reading a script (run through sh, not exec'd, so a parallel
    /// test's fork holding the file open for writing cannot make it "text file busy").
    func script(_ dir: TempDirectory, _ body: String) throws -> [String] {
        let path = dir.file("confirm-\(UUID().uuidString).sh")
        try (body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return ["/bin/sh", path]
    }

    @Test func theFirstWordAnswersAndAnythingElseDenies() async throws {
        let dir = TempDirectory("authdeck-confirm")
        let env = ["PATH": "/usr/bin:/bin"]
        for (body, expected) in [("echo once", AgentDecision.once), ("echo connection extra", .connection), ("echo DENY", .deny),
                                 ("echo yes please", .deny), ("true", .deny), ("echo once; exit 1", .deny)] {
            let confirmer = CommandConfirmer(argv: try script(dir, body), environment: env)
            #expect(await confirmer.confirm(Self.ask(host: "h"), timeout: 10) == expected, "\(body)")
        }
        #expect(await CommandConfirmer(argv: ["no-such-confirmer-x"], environment: env).confirm(Self.ask(host: "h"), timeout: 5) == .deny)
    }

    /// The hung command's own child (a `sleep` in the background of a shell) dies with it:
    /// without the process group, `sleep 100` lived on under init after the deny.
    @Test func aHungCommandIsKilledWithItsChildren() async throws {
        let dir = TempDirectory("authdeck-confirm")
        let marker = dir.file("child.pid")
        let path = try script(dir, "sleep 600 & echo $! > \(marker); wait; echo once")
        let started = Date()
        // Awaited on threads of its own. The bound is far under the 600 s the command would take
        // and far over the 1 s asked: under the whole suite this test process's threads were
        // so busy that the answer came 70 s late (the agent's own process has no such load).
        let decision = await withTaskExecutorPreference(ThreadExecutor(label: "authdeck.confirm-test")) {
            await CommandConfirmer(argv: path, environment: ["PATH": "/usr/bin:/bin"]).confirm(Self.ask(host: "h"), timeout: 1)
        }
        #expect(decision == .deny)
        #expect(Date().timeIntervalSince(started) < 300)
        let child = try #require(Int32(String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        var gone = false
        for _ in 0..<200 where !gone {
            gone = kill(child, 0) != 0
            if !gone { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(gone, "the background sleep \(child) outlived the confirm command")
        if !gone { kill(child, SIGKILL) }
    }

    /// A remote's host name with a line break and an escape reaches the command as inert text.
    @Test func theHostReachesTheCommandInert() async throws {
        let dir = TempDirectory("authdeck-confirm")
        let seen = dir.file("host")
        let path = try script(dir, "printf '%s' \"$AUTHDECK_AGENT_HOST\" > \(seen); echo deny")
        _ = await CommandConfirmer(argv: path, environment: ["PATH": "/usr/bin:/bin"]).confirm(Self.ask(host: "evil\n\u{1b}[31mallowed"), timeout: 10)
        let text = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(!text.contains("\n") && !text.contains("\u{1b}"), "\(text.debugDescription)")
        #expect(text.hasPrefix("evil") && text.hasSuffix("(as it says)"))
    }
}
