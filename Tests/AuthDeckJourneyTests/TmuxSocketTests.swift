import Testing
import Foundation

/// Issue 31, item 22: a test or benchmark that drives tmux on the default socket runs its deck
/// under the person's own tmux server, where a failed run leaves it behind. Every script and test
/// that starts tmux names a socket of its own (`-L`); `TmuxSession` kills its server by pid.
@Suite struct TmuxSocketTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    @Test func everyTmuxCommandInTestsAndBenchmarksUsesItsOwnSocket() throws {
        let scripts = ["bench/run", "Tests/readme/run", "Tests/reliability/run", "Tests/fuzz/run", ".ci/run", "scripts/test"]
        var files = scripts.map { Self.root.appendingPathComponent($0).path }
        for dir in ["Tests", "Sources/AuthDeckTestSupport"] {
            let base = Self.root.appendingPathComponent(dir).path
            let names = (FileManager.default.enumerator(atPath: base)?.allObjects as? [String]) ?? []
            files += names.filter { $0.hasSuffix(".swift") }.map { base + "/" + $0 }
        }
        let verb = try Regex(#"\btmux\s+(new-session|new|send-keys|capture-pane|kill-server|kill-session|has-session|display-message|resize-window|attach)"#)
        var offenders: [String] = []
        for file in files {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(verb) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("#")
                && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && !line.contains("`tmux") {
                offenders.append("\(file.replacingOccurrences(of: Self.root.path + "/", with: "")):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "tmux on the default socket:\n\(offenders.joined(separator: "\n"))")
        #expect(files.count > 20, "the scan found the sources (\(files.count) files)")
    }
}
