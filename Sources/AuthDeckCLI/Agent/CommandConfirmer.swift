#if canImport(Glibc)
import Glibc
#endif
import Foundation
import AuthDeckCore
import AuthDeckApp

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
        var env = environment
        env["AUTHDECK_AGENT_HOST"] = ask.host + (ask.hostClaimed ? " (as it says)" : "")
        env["AUTHDECK_AGENT_ACCOUNT"] = ask.accountName
        env["AUTHDECK_AGENT_AUDIENCE"] = ask.audience
        env["AUTHDECK_AGENT_CLIENT"] = ask.client
        env["AUTHDECK_AGENT_SESSION"] = ask.session ?? ""
        let words = argv, told = env
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.run(words, environment: told, timeout: timeout)) }.start()
        }
    }

    /// Runs the program, reads at most 4 KiB of its stdout until it closes or `timeout`
    /// passes, and reads the answer from its first word.
    static func run(_ argv: [String], environment: [String: String], timeout: Double) -> AgentDecision {
        guard let program = resolve(argv[0], path: environment["PATH"]) else { return .deny }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(argv.dropFirst())
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return .deny }
        let deadline = Date().addingTimeInterval(timeout)
        let fd = out.fileHandleForReading.fileDescriptor
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
        var timedOut = false
        while process.isRunning {
            if Date() >= deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        guard !timedOut, process.terminationReason == .exit, process.terminationStatus == 0 else { return .deny }
        let word = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0.isWhitespace }).first.map { $0.lowercased() }
        return word.flatMap(AgentDecision.init(rawValue:)) ?? .deny
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
