#if canImport(Glibc)
import Glibc
#endif
import Foundation
import AuthDeckCore
import AuthDeckApp

/// The agent's person, asked on its controlling terminal (`/dev/tty`): once, for this
/// connection, or deny — one question at a time, each bounded by the request's timeout.
///
/// Why /dev/tty: `authdeck agent` may run with its output redirected, yet the person sits at
/// the terminal; and a prompt nobody answers must end as a deny, never hold the remote.
final class TerminalConfirmer: AgentConfirming, @unchecked Sendable {
    private let fd: Int32
    /// One question on the terminal at a time.
    private let asking = NSLock()

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// The terminal, when a person can be asked there (stdin or stderr a terminal too, as
    /// `AccountPick` requires); nil otherwise.
    static func open() -> TerminalConfirmer? {
        guard isatty(0) == 1 || isatty(2) == 1 else { return nil }
        let fd = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard isatty(fd) == 1 else { Glibc.close(fd); return nil }
        return TerminalConfirmer(fd: fd)
    }

    func confirm(_ ask: AgentAsk, timeout: Double) async -> AgentDecision {
        await withCheckedContinuation { continuation in
            Thread { [self] in continuation.resume(returning: self.ask(ask, timeout: timeout)) }.start()
        }
    }

    func ask(_ ask: AgentAsk, timeout: Double) -> AgentDecision {
        let deadline = Date().addingTimeInterval(timeout)
        asking.lock()
        defer { asking.unlock() }
        let host = TerminalText.inert(ask.host) + (ask.hostClaimed ? " (as it says)" : "")
        let audience = ask.audience.isEmpty ? "" : " (\(TerminalText.inert(ask.audience)))"
        let choices = (ask.session == nil ? "[o]nce, [d]eny" : "[o]nce, [c]onnection, [d]eny") + " (then Enter)"
        // What was typed before this question (a late answer to the last one) must not answer
        // it: the person has not seen this host yet.
        tcflush(fd, TCIFLUSH)
        say("\nhost \(host) asks for \(TerminalText.inert(ask.accountName))\(audience) via \(TerminalText.inert(ask.client)): \(choices)? ")
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let line = readLine(within: left) else {
                say("\n(no answer in time: denied)\n")
                return .deny
            }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "o", "once": return .once
            case "c" where ask.session != nil, "connection" where ask.session != nil: return .connection
            case "d", "deny", "n", "no", "": return .deny
            default: say("\(choices)? ")
            }
        }
    }

    func say(_ text: String) {
        AccountPick.write(text, to: fd)
    }

    /// One line typed within `seconds` (the terminal in its usual line mode), or nil.
    func readLine(within seconds: Double) -> String? {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let ms = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, ms)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            bytes += buffer[..<n]
            if bytes.contains(0x0A) || bytes.count > 1024 { break }
        }
        return String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }
}
