import Testing
import ArgumentParser
@testable import AuthDeckCLI

/// `authdeck ssh`'s command line as ArgumentParser hands it over, and the ssh command line it
/// makes: the host first and never an option, the person's options after the forward (so their
/// `-T` wins over the login shell's `-t`), the remote command's words for the remote shell.
/// The real sshd journey (`RemoteSSHJourneyTests`) runs what these build.
@Suite struct SshCommandTests {
    @Test func theWordsSplitIntoHostOptionsAndCommand() throws {
        let parsed = try #require(try AuthDeckCommand.parseAsRoot(["ssh", "build-1", "-p", "2222", "-i", "/k", "--", "make", "deploy"]) as? SshCommand)
        let call = try SshCommand.call(parsed.words)
        #expect(call == SshCommand.Call(host: "build-1", options: ["-p", "2222", "-i", "/k"], command: ["make", "deploy"]))
        #expect(try SshCommand.call(["h"]) == SshCommand.Call(host: "h", options: [], command: []))
        #expect(try SshCommand.call(["h", "--", "--"]) == SshCommand.Call(host: "h", options: [], command: ["--"]))
        for bad in [[], ["-oProxyCommand=sh"], [""]] as [[String]] {
            #expect(throws: CLIError.self) { try SshCommand.call(bad) }
        }
    }

    @Test func sshGetsTheForwardThenTheOptionsThenTheWrapper() {
        let remote = SshCommand.remotePath()
        #expect(remote.hasPrefix("/tmp/authdeck-agent-") && remote.hasSuffix(".sock") && remote.count == "/tmp/authdeck-agent-".count + 16 + 5)
        #expect(remote != SshCommand.remotePath())
        let shell = SshCommand.sshArguments(.init(host: "h", options: ["-T"], command: []), remote: "/tmp/r.sock", session: "/run/s.sock")
        #expect(shell == ["ssh", "-R", "/tmp/r.sock:/run/s.sock", "-o", "ExitOnForwardFailure=yes", "-t", "-T", "h",
                          "AUTHDECK_AGENT=/tmp/r.sock; export AUTHDECK_AGENT; trap 'rm -f /tmp/r.sock' EXIT; \"${SHELL:-/bin/sh}\" -l"])
        let command = SshCommand.sshArguments(.init(host: "h", options: [], command: ["git", "pull", "&&", "make"]), remote: "/tmp/r.sock", session: "/run/s.sock")
        #expect(command.last == "AUTHDECK_AGENT=/tmp/r.sock; export AUTHDECK_AGENT; trap 'rm -f /tmp/r.sock' EXIT; git pull && make")
        #expect(!command.contains("-t"))
    }

    /// The words pass to ssh untouched, so `--help` must be caught before they are read as a host.
    @Test func helpIsShownNotTakenForAHost() async throws {
        let output = CapturedOutput()
        let home = SeamHome()
        let parsed = try #require(try AuthDeckCommand.parseAsRoot(["ssh", "--help"]) as? SshCommand)
        try await parsed.run(in: home.context(output))
        #expect(output.out.contains("USAGE:") && output.out.contains("ssh to HOST with your authdeck agent forwarded"), "\(output.out)")
        #expect(output.out.contains("ExitOnForwardFailure"))
        #expect(output.err.isEmpty)
    }
}
