#if canImport(Glibc)
import Glibc
#endif

/// A process told apart from a later one that got the same pid: its pid and the time it
/// started (clock ticks since boot, field 22 of /proc/PID/stat).
///
/// Why: a renewal's rescue file names its process, and the next command must tell "still
/// running" (leave the file to it, however long it was stopped) from "gone" (commit the file);
/// a pid alone cannot, once the kernel hands it to another process.
public struct ProcessIdentity: Sendable, Equatable {
    public var pid: Int32
    /// Nil where /proc cannot tell (then only the pid is known).
    public var startTicks: UInt64?

    public init(pid: Int32, startTicks: UInt64?) {
        self.pid = pid
        self.startTicks = startTicks
    }

    /// This process.
    public static var current: ProcessIdentity {
        let pid = getpid()
        return ProcessIdentity(pid: pid, startTicks: startTicks(of: pid))
    }

    /// Whether this very process still runs: its pid is in use (by anyone, EPERM included), not
    /// by a zombie (killed, not yet reaped by its parent: it counted as running, and its rescue
    /// file waited while the next command spent its token again) and, when its start time is
    /// known, by a process that started then.
    public var isRunning: Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = Self.stat(of: pid) else { return startTicks == nil }
        guard stat.state != UInt8(ascii: "Z"), stat.state != UInt8(ascii: "X") else { return false }
        guard let startTicks else { return true }
        return stat.startTicks == startTicks
    }

    /// `pid.startTicks` (or `pid` alone), as it appears in a file name.
    public var text: String { startTicks.map { "\(pid).\($0)" } ?? "\(pid)" }

    /// Reads `text` back; nil when it is neither form.
    public init?(text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let pid = Int32(parts[0]), pid > 0 else { return nil }
        if parts.count == 2 {
            guard let ticks = UInt64(parts[1]) else { return nil }
            self.init(pid: pid, startTicks: ticks)
        } else {
            self.init(pid: pid, startTicks: nil)
        }
    }

    /// When `pid` started, in clock ticks since boot, or nil (no such process, no /proc).
    public static func startTicks(of pid: Int32) -> UInt64? {
        stat(of: pid)?.startTicks
    }

    /// `pid`'s state letter (field 3) and start time (field 22) from /proc/PID/stat.
    static func stat(of pid: Int32) -> (state: UInt8, startTicks: UInt64)? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        // The command name (field 2) is in parentheses and may hold spaces or ")": fields 3
        // onwards follow its last ")"; field 3 is the first of them, field 22 the 20th.
        let text = buffer.prefix(n)
        guard let close = text.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = text[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19, let state = fields[0].first, let ticks = UInt64(String(decoding: fields[19], as: UTF8.self)) else { return nil }
        return (state, ticks)
    }
}
