import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckPlatform

/// `authdeck ssh HOST [ssh options…] [-- command…]`: ssh to HOST with this machine's authdeck
/// agent forwarded, so `authdeck token`, `cookies` and the git, kubectl and docker helpers
/// there answer through it (`AUTHDECK_AGENT`) and no refresh token ever lands on HOST.
///
/// The agent gives a session socket tied to HOST as typed (its confirmations name HOST, and
/// "allow for this connection" ends with it); this command holds the session's connection open
/// for exactly the ssh's lifetime. The remote end is a fresh random path in /tmp (sshd makes it
/// 0600, the user's own), and `ExitOnForwardFailure` makes ssh stop rather than run the command
/// with nothing behind `AUTHDECK_AGENT`.
struct SshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssh", abstract: "ssh to HOST with your authdeck agent forwarded (AUTHDECK_AGENT there).",
        discussion: """
            Runs `ssh -R REMOTE:SESSION -o ExitOnForwardFailure=yes [ssh options…] HOST …` where SESSION is a socket \
            the running agent (`authdeck agent`, or the open deck) makes for HOST and REMOTE a new /tmp/authdeck-agent-*.sock \
            on HOST. On HOST, AUTHDECK_AGENT names REMOTE for the command after `--`, or for a login shell when none is given. \
            The exit status is ssh's; 3 when no agent is running.
            """)

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("HOST, then ssh's options (-p, -i, -o…), then `--` and the remote command.",
                                                                 valueName: "host"))
    var words: [String] = []

    /// What the command line says: where to go, ssh's own options, and the remote command.
    struct Call: Equatable {
        var host: String
        var options: [String]
        var command: [String]
    }

    func run() async throws {
        try await run(in: DeckContext(storeFlag: nil, configFlag: nil))
    }

    /// The command with its ports given (`DeckContext`: the environment the agent's path and
    /// ssh's own come from).
    func run(in context: DeckContext) async throws {
        // The words pass through to ssh untouched, so the parser never sees a help flag here.
        if let first = words.first, first == "--help" || first == "-h" {
            return context.output.raw(Self.helpMessage(columns: nil) + "\n")
        }
        let call = try Self.call(words)
        let environment = context.environment
        let main = AgentSocket.localPath(environment)
        let session: AgentConnection
        do { session = try AgentSocket.connect(main, timeout: 5) } catch {
            throw CLIError.needsSignIn("\(error); start one with `authdeck agent` (or open the deck), then run `authdeck ssh \(TerminalText.inert(call.host))` again")
        }
        defer { session.close() }
        let answer = try AgentClient(path: main, timeout: 10, client: "ssh").exchange(on: session, "session", [("host", call.host)])
        guard let socket = answer["socket"], socket.hasPrefix("/") else { throw CLIError.failure("the agent at \(main) answered the session without a socket") }
        let remote = Self.remotePath()
        let status = try await ExecCommand.runForwardingSignals(Self.sshArguments(call, remote: remote, session: socket), environment: environment)
        if status != 0 { throw ExitCode(status) }
    }

    /// Splits `words`: the host first (never an option, so ssh cannot read it as one), ssh's
    /// options up to `--`, the remote command after it.
    static func call(_ words: [String]) throws -> Call {
        guard let host = words.first, !host.isEmpty, !host.hasPrefix("-") else {
            throw CLIError.usage("authdeck ssh HOST [ssh options…] [-- command…]: the host comes first\(words.first.map { " (found \"\(TerminalText.inert($0))\")" } ?? "")")
        }
        let rest = words.dropFirst()
        guard let dashes = rest.firstIndex(of: "--") else { return Call(host: host, options: Array(rest), command: []) }
        return Call(host: host, options: Array(rest[..<dashes]), command: Array(rest[(dashes + 1)...]))
    }

    /// ssh's command line: the forward and its failure rule first, `-t` for a login shell
    /// (before the person's options, so their `-T` wins), the person's options, the host, and
    /// the remote wrapper.
    static func sshArguments(_ call: Call, remote: String, session: String) -> [String] {
        ["ssh", "-R", "\(remote):\(session)", "-o", "ExitOnForwardFailure=yes"] + (call.command.isEmpty ? ["-t"] : [])
            + call.options + [call.host, wrapper(call.command, remote: remote)]
    }

    /// The remote shell's words: `AUTHDECK_AGENT` exported, then the command as ssh would run
    /// it (its words joined by spaces, for the remote shell to read), or a login shell; the
    /// forwarded socket removed when it ends (sshd leaves it behind).
    static func wrapper(_ command: [String], remote: String) -> String {
        let run = command.isEmpty ? "\"${SHELL:-/bin/sh}\" -l" : command.joined(separator: " ")
        return "AUTHDECK_AGENT=\(remote); export AUTHDECK_AGENT; trap 'rm -f \(remote)' EXIT; \(run)"
    }

    /// A new remote socket path: /tmp (every host has it) and 16 random hex digits, so two
    /// sessions to one host never meet and nobody can guess the name ahead of sshd's bind.
    static func remotePath() -> String {
        var rng = SystemRandomNumberGenerator()
        let n = rng.next() as UInt64
        let hex = String(n, radix: 16)
        return "/tmp/authdeck-agent-" + String(repeating: "0", count: 16 - hex.count) + hex + ".sock"
    }
}
