import Foundation
import AuthDeckUI
import AuthDeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The screen oracle: compares what a real terminal (tmux) shows with the frame the deck
/// meant to show (`AUTHDECK_TEST_FRAMES`), cell by cell, and fails with a readable diff.
///
/// Why: reading a few words off the screen missed debris, shifted rows and corrupted
/// locales; comparing every cell with the intended frame after each step does not.
struct ScreenOracle {
    let session: TmuxSession
    /// The file the deck writes its intended frames to.
    let frames: String

    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// The last intended frame: its number, size and lines; nil before the first.
    func intended() -> (number: Int, size: String, lines: [String])? {
        guard let text = try? String(contentsOfFile: frames, encoding: .utf8) else { return nil }
        var lines = text.components(separatedBy: "\n")
        let head = lines.removeFirst().split(separator: " ")
        guard head.count == 3, head[0] == "frame", let n = Int(head[1]) else { return nil }
        if lines.last == "" { lines.removeLast() }
        return (n, String(head[2]), lines)
    }

    /// Waits until the intended frame satisfies `condition` (the deck has done what a step
    /// asked); returns its text.
    @discardableResult
    func waitForFrame(_ what: String, timeout: Double = 15, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            if let frame = intended() {
                last = frame.lines.joined(separator: "\n")
                if condition(last) { return last }
            }
            usleep(20_000)
        }
        throw Mismatch(description: "waited \(Int(timeout)) s for the deck to mean \(what); its last frame:\n\(last)")
    }

    @discardableResult
    func waitForFrame(text: String, timeout: Double = 15) throws -> String {
        try waitForFrame("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Checks that the terminal shows the intended frame, every cell of it. A frame that
    /// changes meanwhile (a countdown) is retried; the same frame shown wrong for `timeout`
    /// seconds fails with the rows that differ.
    func check(_ step: String, timeout: Double = 4) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var report = "no frame was written"
        while Date() < deadline {
            guard let before = intended() else { usleep(20_000); continue }
            let shown = try session.screen().components(separatedBy: "\n")
            guard let after = intended(), after.number == before.number else { continue }
            guard let diff = Self.diff(want: before.lines, got: shown) else { return }
            report = "frame \(before.number) (\(before.size)): \(diff)"
            usleep(50_000)
        }
        throw Mismatch(description: "after \(step), the terminal does not show what the deck drew — \(report)")
    }

    /// A row as cells: a wide character takes two, the second nil.
    static func cells(_ line: String) -> [Character?] {
        var out: [Character?] = []
        for ch in line {
            let w = CharacterWidth.of(ch)
            if w == 0 { continue }
            out.append(ch)
            if w == 2 { out.append(nil) }
        }
        while let last = out.last, last == " " { out.removeLast() }
        return out
    }

    /// The rows whose cells differ, each with a caret under the first differing cell; nil
    /// when every cell matches.
    static func diff(want: [String], got: [String]) -> String? {
        var rows: [String] = []
        for y in 0..<max(want.count, got.count) {
            let w = cells(y < want.count ? want[y] : ""), g = cells(y < got.count ? got[y] : "")
            guard w != g else { continue }
            let x = (0..<min(w.count, g.count)).first { w[$0] != g[$0] } ?? min(w.count, g.count)
            rows.append("row \(y), column \(x):\n  want: \(y < want.count ? want[y] : "")\n  got:  \(y < got.count ? got[y] : "")\n        "
                        + String(repeating: " ", count: x) + "^")
        }
        if rows.isEmpty { return nil }
        return "\(rows.count) row\(rows.count == 1 ? "" : "s") differ\n" + rows.joined(separator: "\n")
    }
}
