import Testing
import Foundation
import AuthDeckUI

/// The man page renders with man(1) and documents every command the binary has.
@Suite struct ManPageTests {
    @Test func rendersAndNamesEveryCommand() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../man/authdeck.1").standardized.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["man", "-l", page]
        process.environment = ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100", "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for heading in ["SYNOPSIS", "COMMANDS", "OPTIONS", "FILES", "ENVIRONMENT", "EXIT STATUS"] {
            #expect(text.contains(heading), "\(heading)")
        }
        // The KEYS section lists every binding of the deck's one keymap table, word for word.
        let raw = try String(contentsOfFile: page, encoding: .utf8)
        for binding in Keymap.bindings {
            #expect(raw.contains(".B \(binding.label)\n\(binding.help)\n"), "KEYS: \(binding.label)")
        }
        for command in ["deck", "demo", "status", "providers", "accounts", "login", "refresh", "token", "cookies", "request", "exec", "watch", "logout", "prune", "events", "msal inspect", "msal prune", "import msal", "import cookies", "import cert", "config import-url", "key migrate"] {
            #expect(text.contains("authdeck \(command)"), "\(command)")
        }
    }
}
