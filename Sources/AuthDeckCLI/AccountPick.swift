#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore
import AuthDeckConfig

/// A person's choice among the accounts an ambiguous ACCOUNT names, asked on the controlling
/// terminal (`/dev/tty`), as Git Credential Manager asks which account to use.
///
/// Why /dev/tty and not stdin/stdout: `$(authdeck token work)` captures stdout and git's
/// credential helpers get the request on stdin, yet the person still sits at the terminal.
/// Why only when stdin or stderr is a terminal too (the passphrase prompt's rule): a service,
/// a test or docker (which captures its helpers' stderr) started from a terminal must fail at
/// once with the list, not wait on a terminal nobody watches.
final class AccountPick {
    /// How many answers that are neither a listed number nor an id are asked again before the
    /// pick gives up: a person mistypes; a script typing into a terminal must not loop forever.
    static let attempts = 3

    /// What a caller allows when it lets ACCOUNT be picked: the config the candidates' states
    /// are read with, and what the account is for (a `[[credential]]` url), said in the question.
    struct Asking {
        var config: DeckConfig
        var about: String?
    }

    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// The controlling terminal, when a person can be asked there; nil otherwise.
    static func terminal() -> AccountPick? {
        guard isatty(0) == 1 || isatty(2) == 1 else { return nil }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard isatty(fd) == 1 else { close(fd); return nil }
        return AccountPick(fd: fd)
    }

    /// Lists `rows` under `title`, numbered from 1, and reads the choice: a number or one of
    /// `ids`. nil when the person cancels (end of input, an empty answer, Ctrl-C) or gives no
    /// valid answer in `attempts` tries.
    func choose(title: String, rows: [String], ids: [String]) -> Int? {
        let width = String(rows.count).count
        var text = title + "\n"
        for (index, row) in rows.enumerated() {
            let number = String(index + 1)
            text += String(repeating: " ", count: 2 + width - number.count) + number + ") " + row + "\n"
        }
        say(text)
        for attempt in 1...Self.attempts {
            say("Use which account? [1-\(rows.count), Enter to cancel]: ")
            guard let line = readLine() else { say("\n"); return nil }
            let answer = line.trimmingWhitespace()
            if answer.isEmpty { return nil }
            if let number = Int(answer), (1...rows.count).contains(number) { return number - 1 }
            if let index = ids.firstIndex(of: answer) { return index }
            say("\"\(TerminalText.inert(answer))\" is not one of 1-\(rows.count)"
                + (attempt < Self.attempts ? "; try again.\n" : "; nothing chosen.\n"))
        }
        return nil
    }

    /// Writes `text` to the terminal (never stdout: it may be a pipe or `$(…)`).
    func say(_ text: String) {
        Self.write(text, to: fd)
    }

    /// Writes all of `text` to `fd`, through interrupted and partial writes; what the agent's
    /// terminal prompt (`TerminalConfirmer`) writes with too.
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// One line typed at the terminal; nil at end of input or on Ctrl-C.
    ///
    /// Why Ctrl-C is read rather than left to raise SIGINT: a killed process exits 130 with the
    /// terminal's state unknown; read as an answer, it cancels like an empty one (exit 2,
    /// nothing changed). While asking, the terminal's signal keys are off and Ctrl-C (0x03)
    /// ends a line as Enter does; the line editing and echo a person expects stay on.
    private func readLine() -> String? {
        var saved = termios()
        let isTerminal = tcgetattr(fd, &saved) == 0
        if isTerminal {
            var asking = saved
            asking.c_lflag &= ~tcflag_t(ISIG)
            asking.c_lflag |= tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &asking.c_cc) { $0[Int(VEOL)] = 0x03 }
            tcsetattr(fd, TCSANOW, &asking)
        }
        defer { if isTerminal { tcsetattr(fd, TCSANOW, &saved) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            bytes += buffer[..<n]
            if bytes.contains(0x03) { say("\n"); return nil }
            if bytes.last == 0x0A { break }
            if bytes.count > 4096 { return nil }
        }
        return String(decoding: bytes.filter { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }
}
