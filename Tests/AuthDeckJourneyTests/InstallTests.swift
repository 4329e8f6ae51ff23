import Testing
import Foundation
import AuthDeckTestSupport

/// `scripts/install` into a temporary prefix, then the installed authdeck used as a person
/// would: the front finds authdeck-full in libexec, the deck finds all four shipped themes,
/// the demo finds its emulator, `man authdeck` finds the page from PATH, and the bash
/// completion script completes account and provider names from the store and config.
@Suite(.serialized) struct InstallTests {
    let home = TempDirectory("authdeck-install")
    var prefix: String { home.file("prefix") }
    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
    }
    var environment: [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"), "TMPDIR": home.path,
         "PATH": "\(prefix)/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color",
         // tmux passes its server's environment on; the test runner's NO_COLOR would hide the themes.
         "NO_COLOR": ""]
    }

    func shell(_ script: String, env: [String: String]? = nil) throws -> (status: Int32, out: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script]
        p.environment = env ?? environment
        p.currentDirectoryURL = URL(fileURLWithPath: Self.repository)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    func install() throws {
        let built = URL(fileURLWithPath: BinaryRunner(product: "authdeck", environment: [:]).executable).deletingLastPathComponent().path
        let r = try shell("scripts/install --prefix '\(prefix)' --from '\(built)'")
        try #require(r.status == 0, "\(r.out)")
        for file in ["bin/authdeck", "bin/docker-credential-authdeck", "libexec/authdeck/authdeck-full", "libexec/authdeck/authdeck-idp", "share/man/man1/authdeck.1",
                     "share/bash-completion/completions/authdeck", "share/zsh/site-functions/_authdeck",
                     "share/fish/vendor_completions.d/authdeck.fish"] + ["default", "high-contrast", "monochrome", "solarized-dark"].map({ "share/authdeck/themes/\($0).toml" }) {
            #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), "installed \(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(prefix)/bin/authdeck-full"), "helpers stay out of bin")
    }

    @Test func theInstalledDeckFindsEveryThemeAndTheDemoItsEmulator() throws {
        try install()
        // An unknown theme lists the ones found: all four shipped files through the prefix.
        let s = try TmuxSession(environment: environment, command: "\(prefix)/bin/authdeck deck --theme nope; echo EXIT=$?")
        let screen = try s.waitFor(text: "EXIT=2")
        #expect(screen.contains("themes: default, high-contrast, monochrome, solarized-dark"), "\(screen)")
        let demo = try TmuxSession(environment: environment, command: "\(prefix)/bin/authdeck demo; echo EXIT=$?")
        try demo.waitFor("the demo's deck", timeout: 90) { ["Azure AD", "Facebook", "OIDC"].allSatisfy($0.contains) }
        try demo.send("q")
        try demo.waitFor(text: "EXIT=0")
    }

    @Test func manFindsThePageAndTheCompletionsAreValid() throws {
        try install()
        let man = try shell("man -w authdeck")
        #expect(man.out.trimmingCharacters(in: .whitespacesAndNewlines) == "\(prefix)/share/man/man1/authdeck.1", "\(man.out)")
        let rendered = try shell("MANWIDTH=80 man authdeck 2>/dev/null | head -20")
        #expect(rendered.out.contains("authdeck"), "\(rendered.out)")
        #expect(try shell("bash -n '\(prefix)/share/bash-completion/completions/authdeck'").status == 0)
        #expect(try shell("zsh -n '\(prefix)/share/zsh/site-functions/_authdeck' 2>/dev/null || ! command -v zsh").status == 0)
    }

    /// Round 3, item 5: the install ended "man page: man authdeck" right before "note: …/bin is
    /// not on your PATH", where `man authdeck` finds nothing. It says how to reach the binary,
    /// then the page, for the PATH and MANPATH it runs with; each way it gives works.
    @Test func theInstallSaysHowToReachTheBinaryThenThePage() throws {
        let built = URL(fileURLWithPath: BinaryRunner(product: "authdeck", environment: [:]).executable).deletingLastPathComponent().path
        let page = "\(prefix)/share/man/man1/authdeck.1"
        func lines(_ env: [String: String]) throws -> [String] {
            let r = try shell("scripts/install --prefix '\(prefix)' --from '\(built)'", env: env)
            try #require(r.status == 0, "\(r.out)")
            return r.out.split(separator: "\n").map(String.init)
        }
        var offPath = environment
        offPath["PATH"] = "/usr/bin:/bin"
        let off = try lines(offPath)
        let run = try #require(off.firstIndex { $0.hasPrefix("run: ") }, "\(off)")
        let man = try #require(off.firstIndex { $0.hasPrefix("man page: ") }, "\(off)")
        #expect(run < man, "the binary first, then the page: \(off)")
        #expect(off[run].contains("run: \(prefix)/bin/authdeck (\(prefix)/bin is not on your PATH"), "\(off[run])")
        #expect(off[run].contains("export PATH=\"\(prefix)/bin:$PATH\""), "\(off[run])")
        #expect(off[man].hasPrefix("man page: man -l \(page) "), "\(off[man])")
        #expect(!off.contains("man page: man authdeck") && !off.contains { $0.contains("man authdeck)") && !$0.contains("-l") })
        #expect(try shell("MANWIDTH=80 man -l '\(page)' 2>/dev/null | head -5", env: offPath).out.contains("authdeck"))

        var hidden = environment
        hidden["MANPATH"] = "/usr/share/man"
        let masked = try lines(hidden)
        let said = try #require(masked.first { $0.hasPrefix("man page: ") }, "\(masked)")
        #expect(said.hasPrefix("man page: man -l \(page) (MANPATH is set without \(prefix)/share/man"), "\(said)")
        hidden["MANPATH"] = "\(prefix)/share/man:/usr/share/man"
        #expect(try shell("man -w authdeck", env: hidden).out.trimmingCharacters(in: .whitespacesAndNewlines) == page)

        let onPath = try lines(environment)
        #expect(onPath.contains("run: authdeck") && onPath.contains("man page: man authdeck"), "\(onPath)")
    }

    /// Completion as bash runs it: the installed script's function, called the way bash calls
    /// it on Tab, asks the installed binary, which reads the store and the config.
    @Test func bashCompletesAccountsAndProvidersFromTheStoreAndConfig() throws {
        try install()
        let idp = try EmulatorProcess()
        try home.writeConfig(idp.workAndIntranetTOML(renewBefore: "5m"))
        let login = try shell("AUTHDECK_PASSWORD=taro-pass-123 authdeck login work --password --username taro@contoso.com")
        try #require(login.status == 0, "\(login.out)")
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let script = """
                source '\(prefix)/share/bash-completion/completions/authdeck'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                _authdeck authdeck "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let r = try shell(script)
            return r.out.split(separator: "\n").map(String.init)
        }
        let accounts = try complete(["authdeck", "token", "ta"])
        #expect(accounts.contains("taro@contoso.com"), "\(accounts)")
        let ids = try complete(["authdeck", "token", "work/"])
        #expect(ids.count == 1 && ids.first?.hasPrefix("work/") == true, "\(ids)")
        let providers = try complete(["authdeck", "login", "sp"])
        #expect(providers == ["sp-intranet"], "\(providers)")
        let option = try complete(["authdeck", "accounts", "--provider", "w"])
        #expect(option == ["work"], "\(option)")
        // With taro in two providers (issue 31, item 17): a shared username is offered as
        // provider/username, `token` offers token accounts and `cookies` cookie accounts.
        try #require(try shell("authdeck login sp-intranet").status == 0)
        let tokens = try complete(["authdeck", "token", ""])
        #expect(tokens.contains("work/taro@contoso.com") && !tokens.contains("taro@contoso.com"), "\(tokens)")
        #expect(!tokens.contains { $0.hasPrefix("sp-intranet/") }, "\(tokens)")
        let cookies = try complete(["authdeck", "cookies", ""])
        #expect(!cookies.isEmpty && cookies.allSatisfy { $0.hasPrefix("sp-intranet/") }, "\(cookies)")
        #expect(try complete(["authdeck", "exec", "w"]).contains("work/taro@contoso.com"))
        #expect(try complete(["authdeck", "exec", "work", "--", "w"]).isEmpty, "the command after -- is not an account")
        #expect(try complete(["authdeck", "events", "--account", "sp"]).contains("sp-intranet/taro@contoso.com"))
        #expect(try complete(["authdeck", "prune", "--reason", "d"]) == ["duplicate"])
    }

    /// Tab in a real bash lists account words whole (issue 39, item 14): registered with
    /// `-o filenames`, readline listed only the part after `/` — bare hex for the ids and a
    /// shared username once per provider — and inserted `@` as `\\@`.
    @Test func bashListsAccountWordsWholeOnTab() throws {
        try install()
        let idp = try EmulatorProcess()
        try home.writeConfig(idp.workAndIntranetTOML(renewBefore: "5m"))
        try #require(try shell("AUTHDECK_PASSWORD=taro-pass-123 authdeck login work --password --username taro@contoso.com").status == 0)
        try #require(try shell("authdeck login sp-intranet").status == 0)
        let setup = "PATH='\(prefix)/bin':$PATH; source '\(prefix)/share/bash-completion/completions/authdeck'; clear"
        let s = try TmuxSession(environment: environment, command: setup)
        try s.send(literal: "authdeck refresh ")
        try s.send("Tab", "Tab")
        let listed = try s.waitFor("the account words") { $0.contains("taro@contoso.com") }
        let typed: Set<String> = ["$", "authdeck", "refresh"]
        let words: [String] = listed.split(whereSeparator: \.isWhitespace).map(String.init)
        let shown: [String] = words.filter { !typed.contains($0) && !$0.hasPrefix("bash") }
        #expect(shown.contains("work/taro@contoso.com") && shown.contains("sp-intranet/taro@contoso.com"), "\(listed)")
        #expect(shown.filter { $0.hasPrefix("work/") }.count == 2 && shown.filter { $0.hasPrefix("sp-intranet/") }.count == 2, "each account's id and provider/username, whole: \(listed)")
        #expect(Set(shown).count == shown.count, "no word twice: \(listed)")
        #expect(shown.allSatisfy { $0.contains("/") }, "no bare hex id or bare shared username: \(listed)")
        let one = try TmuxSession(environment: environment, command: setup)
        try one.send(literal: "authdeck refresh work/ta")
        try one.send("Tab")
        let line = try one.waitFor("the completed word") { $0.contains("work/taro@contoso.com") || $0.contains("work/taro\\@") }
        #expect(line.contains("refresh work/taro@contoso.com") && !line.contains("\\@"), "inserted as typed, no backslash: \(line)")
        // After an `@` (in bash's COMP_WORDBREAKS) the whole word is still completed.
        let at = try TmuxSession(environment: environment, command: setup)
        try at.send(literal: "authdeck refresh sp-intranet/taro@c")
        try at.send("Tab")
        let after = try at.waitFor("the word completed after @") { $0.contains("sp-intranet/taro@contoso.com") }
        #expect(after.contains("refresh sp-intranet/taro@contoso.com"), "\(after)")
    }
}
