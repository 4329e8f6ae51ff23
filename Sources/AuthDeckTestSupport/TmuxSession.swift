import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real terminal for end-to-end tests: a tmux session on its own socket, driven with
/// send-keys and read with capture-pane, polled with timeouts; the server is killed on release.
public final class TmuxSession: @unchecked Sendable {
    let socket: String
    public let name = "t"
    /// The tmux server and the pane's shell, killed by pid on release: `kill-server` alone was
    /// seen to leave both running (a pane shell that outlived its SIGHUP keeps the server up).
    var pids: [Int32] = []

    /// Starts `command` (run by bash) in a `width`×`height` pane with `environment`.
    public init(width: Int = 120, height: Int = 40, environment: [String: String], command: String) throws {
        socket = "authdeck-\(UUID().uuidString.prefix(8))"
        var args = ["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height)]
        for (k, v) in environment.sorted(by: { $0.key < $1.key }) { args += ["-e", "\(k)=\(v)"] }
        args += ["bash --norc --noprofile"]
        try tmux(args)
        try tmux(["set-option", "-t", name, "status", "off"])
        pids = (try? tmux(["display-message", "-p", "-t", name, "#{pid} #{pane_pid}"]))?
            .split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? []
        try send(literal: command)
        try send("Enter")
    }

    deinit {
        _ = try? tmux(["kill-server"])
        for pid in pids.reversed() { kill(pid, SIGKILL) }
    }

    /// Runs tmux with no inherited descriptors beyond 0-2: the tmux server it may start lives
    /// on, and must not hold the pipe Foundation's `Process` watches for our child's exit.
    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", #"for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; exec /usr/bin/tmux "$@""#,
                       "tmux", "-L", socket] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text
    }

    /// Key names as tmux knows them (`Enter`, `Escape`, `Down`, `q`).
    public func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// Text typed as is.
    public func send(literal text: String) throws { try tmux(["send-keys", "-t", name, "-l", text]) }

    /// A left click at a 0-based cell, typed into the pane as an xterm (X10) mouse press and
    /// release — what the terminal sends the program when the user clicks.
    public func click(x: Int, y: Int) throws {
        func event(_ button: Int) -> String {
            "\u{1b}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + x))) + String(UnicodeScalar(UInt8(33 + y)))
        }
        try send(literal: event(0) + event(3))
    }

    public func screen() throws -> String { try tmux(["capture-pane", "-t", name, "-p"]) }

    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    public func paneTitle() throws -> String { try tmux(["display-message", "-t", name, "-p", "#{pane_title}"]) }

    /// The pane's terminal device: what a program in the pane writes to, so a test can write
    /// over the screen behind that program's back.
    public func paneTTY() throws -> String {
        try tmux(["display-message", "-t", name, "-p", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `condition` holds; fails with the last screen after `timeout`.
    @discardableResult
    public func waitFor(_ what: String, timeout: Double = 15, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            usleep(50_000)
        }
        throw NSError(domain: "TmuxSession", code: 1, userInfo: [NSLocalizedDescriptionKey: "waited \(Int(timeout)) s for \(what); screen:\n\(last)"])
    }

    @discardableResult
    public func waitFor(text: String, timeout: Double = 15) throws -> String {
        try waitFor("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }
}
