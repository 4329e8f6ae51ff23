import Testing
import Foundation
import AuthDeckTestSupport

/// An ambiguous ACCOUNT is picked on the terminal (issue 39, "asked for by the same user"): a
/// person in a real pty (tmux) sees the candidates on /dev/tty, types a number, and a provider
/// id's answer is remembered as `authdeck use` sets it; without a terminal, with `--no-input`,
/// `--json` or git's `GIT_TERMINAL_PROMPT=0` nobody is asked and the old error stands.
@Suite(.serialized) struct AccountPickTests {
    let home = TempDirectory("authdeck-pick")
    let idp: EmulatorProcess
    let runner: BinaryRunner
    /// The two work accounts' ids, in the order the pick lists them.
    let ids: [String]

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(idp.workAndIntranetTOML() + """

            [[credential]]
            url = "http://127.0.0.1:9/repos"
            account = "work"

            """)
        for (user, password) in [("taro@contoso.com", "taro-pass-123"), ("jiro@contoso.com", "jiro-pass-123")] {
            let r = try runner.run(["login", "work", "--password", "--username", user], env: ["AUTHDECK_PASSWORD": password])
            try #require(r.status == 0, "\(r.stderr)")
        }
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(try runner.run(["accounts", "--json"]).stdout.utf8)) as? [[String: Any]])
        ids = listed.compactMap { $0["id"] as? String }.sorted()
        try #require(ids.count == 2)
    }

    /// A pane running `command` with the test's store and config, as a person's shell would.
    /// Commands end with `echo EX""IT=$?`: the quotes keep the typed line from holding what the
    /// test waits for.
    func pane(_ command: String, _ extra: [String: String] = [:]) throws -> TmuxSession {
        try TmuxSession(width: 200, environment: runner.environment.merging(["TERM": "xterm-256color"].merging(extra) { $1 }) { $1 }, command: command)
    }

    func defaults() throws -> String { try runner.run(["use"]).stdout }

    /// What today's error says for `work`, word for word.
    func oldError() throws -> String {
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(try runner.run(["accounts", "--json"]).stdout.utf8)) as? [[String: Any]])
        let lines = try ids.map { id in
            let user = try #require(listed.first { $0["id"] as? String == id }?["username"] as? String)
            return "  \(id)  \(user) (work)"
        }
        return "\"work\" matches 2 accounts; use one of these ids:\n" + lines.joined(separator: "\n")
            + "\n(or make one work's default, and \"work\" names it: `authdeck use ID`)"
    }

    @Test func aProviderIdIsPickedOnTheTerminalAndRemembered() throws {
        // stdout goes to a file, as in `$(authdeck token work)`: the question is on /dev/tty.
        let s = try pane("\(runner.executable) token work > \(home.file("out1")); echo EX\"\"IT1=$?")
        let asked = try s.waitFor(text: "Use which account? [1-2, Enter to cancel]:")
        #expect(asked.contains("\"work\" matches 2 accounts."), "\(asked)")
        #expect(asked.contains("1) \(ids[0])  ") && asked.contains("2) \(ids[1])  "), "\(asked)")
        #expect(asked.contains("taro@contoso.com  work  signed in") && asked.contains("jiro@contoso.com  work  signed in"), "\(asked)")
        try s.send(literal: "2")
        try s.send("Enter")
        let done = try s.waitFor(text: "EXIT1=")
        #expect(done.contains("EXIT1=0"), "\(done)")
        #expect(done.contains("\(ids[1]) (") && done.contains("remembered as the default for work (change with `authdeck use`)."), "\(done)")
        let chosen = try runner.run(["token", ids[1]]).stdout
        let printed = try String(contentsOfFile: home.file("out1"), encoding: .utf8)
        #expect(chosen.hasPrefix("at.") && printed == chosen)
        #expect(try defaults().contains("work  \(ids[1])"), "remembered exactly as `use` does")
        // The next call is not asked: one question on the screen, the second call's status 0.
        try s.send(literal: "\(runner.executable) token work > \(home.file("out2")); echo EX\"\"IT2=$?")
        try s.send("Enter")
        let again = try s.waitFor(text: "EXIT2=")
        #expect(again.contains("EXIT2=0") && again.components(separatedBy: "Use which account?").count == 2, "\(again)")
        let printedAgain = try String(contentsOfFile: home.file("out2"), encoding: .utf8)
        #expect(printedAgain == chosen)
    }

    @Test func withoutATerminalTheOldErrorStands() throws {
        // Pipes on stdin, stdout and stderr: nobody is asked, today's error word for word.
        let piped = try runner.run(["token", "work"])
        let expected = "authdeck: " + (try oldError()) + "\n"
        #expect(piped.status == 2 && piped.stderr == expected, "\(piped.stderr)")
        #expect(try defaults().contains("No default accounts"))
        // On a terminal, --no-input and --json ask nobody either; refresh --json neither.
        for (n, command) in ["token work --no-input", "token work --json", "refresh work --json", "cookies work --no-input"].enumerated() {
            let s = try pane("\(runner.executable) \(command) > /dev/null; echo EX\"\"IT\(n)=$?")
            let screen = try s.waitFor(text: "EXIT\(n)=")
            #expect(screen.contains("EXIT\(n)=2") && screen.contains("matches 2 accounts; use one of these ids:"), "\(command): \(screen)")
            #expect(!screen.contains("Use which account?"), "\(command) asked: \(screen)")
        }
        #expect(try defaults().contains("No default accounts"))
    }

    @Test func anInvalidAnswerIsAskedAgain() throws {
        let s = try pane("\(runner.executable) token work > /dev/null; echo EX\"\"IT=$?")
        try s.waitFor(text: "Use which account?")
        try s.send(literal: "7")
        try s.send("Enter")
        try s.waitFor(text: "\"7\" is not one of 1-2; try again.")
        try s.send(literal: "bob")
        try s.send("Enter")
        try s.waitFor(text: "\"bob\" is not one of 1-2; try again.")
        // An id is an answer too.
        try s.send(literal: ids[0])
        try s.send("Enter")
        let done = try s.waitFor(text: "EXIT=")
        #expect(done.contains("EXIT=0") && done.contains("\(ids[0]) ("), "\(done)")
        #expect(try defaults().contains("work  \(ids[0])"))
    }

    @Test func threeWrongAnswersCancel() throws {
        let s = try pane("\(runner.executable) cookies work > /dev/null; echo EX\"\"IT=$?")
        for (n, answer) in ["0", "3", "x"].enumerated() {
            try s.waitFor("question \(n + 1)") { $0.components(separatedBy: "Use which account?").count == n + 2 }
            try s.send(literal: answer)
            try s.send("Enter")
        }
        let done = try s.waitFor(text: "EXIT=")
        #expect(done.contains("\"x\" is not one of 1-2; nothing chosen.") && done.contains("EXIT=2"), "\(done)")
        #expect(done.contains("no account chosen; nothing changed. \"work\" matches 2 accounts"), "\(done)")
        #expect(try defaults().contains("No default accounts"))
    }

    /// End of input (Ctrl-D), an empty answer and Ctrl-C cancel with exit 2 and change nothing;
    /// Ctrl-C ends the question, not the process by a signal (bash would say 130).
    @Test func endOfInputEmptyAndCtrlCCancel() throws {
        for (n, key) in ["C-d", "Enter", "C-c"].enumerated() {
            let s = try pane("\(runner.executable) exec work -- true; echo EX\"\"IT\(n)=$?")
            try s.waitFor(text: "Use which account?")
            try s.send(key)
            let done = try s.waitFor(text: "EXIT\(n)=")
            #expect(done.contains("EXIT\(n)=2") && done.contains("no account chosen; nothing changed."), "\(key): \(done)")
        }
        #expect(try defaults().contains("No default accounts"))
    }

    /// The terminal is given back as it was after Ctrl-C: its signal keys on again, no extra
    /// end-of-line key (what `stty` in the same pane reads after authdeck ended).
    @Test func theTerminalIsRestored() throws {
        let s = try pane("stty -a > \(home.file("before")); \(runner.executable) token work; stty -a > \(home.file("after")); echo EX\"\"IT=$?")
        try s.waitFor(text: "Use which account?")
        try s.send("C-c")
        try s.waitFor(text: "EXIT=0")
        let before = try String(contentsOfFile: home.file("before"), encoding: .utf8)
        let after = try String(contentsOfFile: home.file("after"), encoding: .utf8)
        #expect(before == after && !after.contains("-isig") && after.contains("eol = <undef>"), "before:\n\(before)\nafter:\n\(after)")
    }

    /// Real git asks the helper for a URL whose `[[credential]]` entry names `work` (two
    /// accounts, no default): the person picks in the pane, git gets that account's token, and
    /// the next fill is answered without a question; git's `GIT_TERMINAL_PROMPT=0` asks nobody.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "SKIPPED: no git"))
    func gitCredentialFillPicksTheRoutesAccount() throws {
        let helper = "credential.helper=!\(runner.executable) git-credential"
        // useHttpPath: git names the repository's path, which the entry's url covers.
        func fill(_ prefix: String = "") -> String {
            "printf 'url=http://127.0.0.1:9/repos/demo.git\\n\\n' | \(prefix)git -c credential.useHttpPath=true -c credential.helper= -c '\(helper)' credential fill"
        }
        let env = ["GIT_CONFIG_NOSYSTEM": "1", "GIT_ASKPASS": "", "SSH_ASKPASS": ""]
        // First, git's "never prompt": the helper says why on stderr and git gives up.
        let quiet = try pane("\(fill("GIT_TERMINAL_PROMPT=0 ")) > \(home.file("fill0")); echo EX\"\"IT0=$?", env)
        let refused = try quiet.waitFor(text: "EXIT0=")
        #expect(!refused.contains("Use which account?") && refused.contains("matches 2 accounts"), "\(refused)")
        #expect(!refused.contains("EXIT0=0"), "\(refused)")
        let s = try pane("\(fill()) > \(home.file("fill1")); echo EX\"\"IT1=$?", env)
        let asked = try s.waitFor(text: "Use which account?")
        #expect(asked.contains("[[credential]] url \"http://127.0.0.1:9/repos\" (account = \"work\"): \"work\" matches 2 accounts."), "\(asked)")
        try s.send(literal: "1")
        try s.send("Enter")
        let done = try s.waitFor(text: "EXIT1=")
        #expect(done.contains("EXIT1=0") && done.contains("remembered as the default for work"), "\(done)")
        let answer = try String(contentsOfFile: home.file("fill1"), encoding: .utf8)
        let token = try runner.run(["token", ids[0]]).stdout.trimmingCharacters(in: .newlines)
        #expect(answer.contains("password=\(token)\n"), "git got the first account's token")
        try s.send(literal: "\(fill()) > \(home.file("fill2")); echo EX\"\"IT2=$?")
        try s.send("Enter")
        let again = try s.waitFor(text: "EXIT2=")
        #expect(again.contains("EXIT2=0") && again.components(separatedBy: "Use which account?").count == 2, "\(again)")
        #expect(try String(contentsOfFile: home.file("fill2"), encoding: .utf8).contains("password=\(token)\n"))
    }
}
