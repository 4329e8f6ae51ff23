#if canImport(Glibc)
import Glibc
#endif
import Foundation
import AuthDeckCore
import AuthDeckApp
import AuthDeckPlatform

/// The agent's person, asked through `[agent_confirm] command`: the program runs with
/// `AUTHDECK_AGENT_HOST`, `_ACCOUNT`, `_AUDIENCE`, `_CLIENT` and `_SESSION` in its
/// environment (and none of authdeck's secrets), and the first word it prints — `once`,
/// `connection` or `deny` — is the answer. Anything else, a non-zero exit, or no answer
/// before the request's timeout (the program is then killed) is a deny.
///
/// Why a command: an agent started from a desktop session has no terminal, yet a dialog
/// (`zenity --question`, a notification with actions) can still ask the person.
struct CommandConfirmer: AgentConfirming {
    let argv: [String]
    /// The environment it runs with, already without authdeck's secrets (`ChildEnvironment`).
    let environment: [String: String]

    func confirm(_ ask: AgentAsk, timeout: Double) async -> AgentDecision {
        // Inert, as the terminal prompt and the deck show them: a host's name is the remote's
        // words, and a line break or escape in it could dress up a dialog the command shows.
        var env = environment
        env["AUTHDECK_AGENT_HOST"] = TerminalText.inert(ask.host) + (ask.hostClaimed ? " (as it says)" : "")
        env["AUTHDECK_AGENT_ACCOUNT"] = TerminalText.inert(ask.accountName)
        env["AUTHDECK_AGENT_AUDIENCE"] = TerminalText.inert(ask.audience)
        env["AUTHDECK_AGENT_CLIENT"] = TerminalText.inert(ask.client)
        env["AUTHDECK_AGENT_SESSION"] = ask.session ?? ""
        let words = argv, told = env
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.run(words, environment: told, timeout: timeout)) }.start()
        }
    }

    /// Runs the program in a process group of its own, reads at most 4 KiB of its stdout until
    /// it closes or `timeout` passes, and reads the answer from its first word. The group is
    /// killed at the end, so a command that hangs (or left a child behind) stops with it.
    static func run(_ argv: [String], environment: [String: String], timeout: Double) -> AgentDecision {
        guard let program = resolve(argv[0], path: environment["PATH"]) else {
            note("confirm_command \(argv[0]) is not an executable in PATH: taken as deny")
            return .deny
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return .deny }
        let (fd, childOut) = (pipeEnds[0], pipeEnds[1])
        // Neither end leaks into another child; the command gets its stdout by dup2.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(childOut, F_SETFD, FD_CLOEXEC)
        defer { close(fd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, childOut, 1)
        var pid: pid_t = 0
        let rc = SpawnAttributes.with(ownGroup: true) { attr in
            SpawnStrings.with([program] + argv.dropFirst(), environment) { cArgs, cEnv in
                posix_spawn(&pid, program, &actions, &attr, cArgs, cEnv)
            }
        }
        close(childOut)
        guard rc == 0 else {
            note("confirm_command \(program) could not start (\(String(cString: strerror(rc)))): taken as deny")
            return .deny
        }
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        while bytes.count < 4096 {
            let ms = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, ms)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[..<n]
        }
        // Waited for without reaping (WNOWAIT): while the command's zombie holds its pid, its
        // group's id cannot be reused, so killing the group can reach nothing else.
        var exited = false
        while !exited && Date() < deadline {
            var info = siginfo_t()
            exited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
            if !exited { usleep(10_000) }
        }
        // The whole group: what the command started in the background goes with it.
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard exited else {
            note("confirm_command \(program) gave no answer within \(Int(timeout.rounded(.up))) s: taken as deny, its process group killed")
            return .deny
        }
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            note("confirm_command \(program) failed (\(status & 0x7f == 0 ? "exit \((status >> 8) & 0xff)" : "signal \(status & 0x7f)")): taken as deny")
            return .deny
        }
        let word = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0.isWhitespace }).first.map { $0.lowercased() }
        guard let decision = word.flatMap(AgentDecision.init(rawValue:)) else {
            note("confirm_command \(program) printed \(word.map { "\"\(TerminalText.inert(String($0.prefix(40))))\"" } ?? "nothing"), not once, connection or deny: taken as deny")
            return .deny
        }
        return decision
    }

    /// A line on the agent's stderr: why a command's answer was taken as a deny (the agent's
    /// person reads it there; the event says only "denied").
    static func note(_ text: String) {
        Output.note("authdeck agent: " + text)
    }

    /// `name` itself when it holds a `/`, else the first executable of that name in `path`.
    static func resolve(_ name: String, path: String?) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
