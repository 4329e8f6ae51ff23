import Testing
import Foundation
import AuthDeckUI
import AuthDeckLook

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
        for command in ["deck", "demo", "status", "providers", "accounts", "login", "refresh", "token", "cookies", "request", "exec", "watch", "logout", "prune", "events", "msal inspect", "msal prune", "import msal", "import cookies", "import cert", "config import-url", "key migrate", "ssh"] {
            #expect(text.contains("authdeck \(command)"), "\(command)")
        }
    }

    /// The OAM and `import cert` promises the CLI tests check (OAMTests, CLITests), stated in
    /// the page as the code keeps them.
    @Test func statesTheOAMAndImportCertBehaviour() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../man/authdeck.1").standardized.path
        let raw = try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        for promise in [
            #"is always the one sent, and replaces the remembered one when the sign-in succeeds"#,
            #"the offline verifier and the remembered password are deleted; the tokens, username and preferences stay"#,
            #"the account then shows \fBneeds_sign_in\fR"#,
            #"neither PEM nor PKCS#12 is refused without asking for a password"#,
            #"a wrong password, a missing certificate or key, a key that is not the certificate's, or an expired"#,
            #"replaces everything of the provider's previous identity (certificate, key, bundle, password) in one transaction"#,
            #"\fB\-\-client\-id\fR \fIid\fR; with neither, a commented \fBclient_id\fR line"#,
        ] {
            #expect(raw.contains(promise), "\(promise)")
        }
        #expect(!raw.contains("wiped"), "the lockout deletes named things, nothing is \"wiped\"")
    }
}
