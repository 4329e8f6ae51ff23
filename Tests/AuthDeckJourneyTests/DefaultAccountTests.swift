import Testing
import Foundation
import AuthDeckTestSupport

/// `authdeck use ACCOUNT` (issue 28): a provider id stands for its default account wherever
/// ACCOUNT is accepted; `accounts` shows it; signing it out clears it and says so.
@Suite(.serialized) struct DefaultAccountTests {
    let home = TempDirectory("authdeck-use")
    let idp: EmulatorProcess
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(idp.workAndIntranetTOML())
        for (user, password) in [("taro@contoso.com", "taro-pass-123"), ("jiro@contoso.com", "jiro-pass-123")] {
            let r = try runner.run(["login", "work", "--password", "--username", user], env: ["AUTHDECK_PASSWORD": password])
            try #require(r.status == 0, "\(r.stderr)")
        }
    }

    func accounts() throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(try runner.run(["accounts", "--json"]).stdout.utf8)) as? [[String: Any]])
    }

    @Test func aProviderIdStandsForItsDefault() throws {
        let ambiguous = try runner.run(["token", "work"])
        #expect(ambiguous.status == 2 && ambiguous.stderr.contains("matches 2 accounts"), "\(ambiguous.stderr)")
        #expect(try runner.run(["use"]).stdout.contains("No default accounts"))
        let set = try runner.run(["use", "jiro@contoso.com"])
        #expect(set.status == 0 && set.stdout.contains("is now the default of work"), "\(set.stderr)")
        let jiro = try #require(try accounts().first { $0["username"] as? String == "jiro@contoso.com" })
        #expect(jiro["default"] as? Bool == true)
        #expect(try accounts().first { $0["username"] as? String == "taro@contoso.com" }?["default"] as? Bool == false)
        let token = try runner.run(["token", "work"])
        #expect(token.status == 0 && token.stdout.hasPrefix("at."), "\(token.stderr)")
        #expect(try runner.run(["token", "jiro@contoso.com"]).stdout == token.stdout, "the provider id gave jiro's token")
        #expect(try runner.run(["accounts"]).stdout.contains("\(jiro["id"] as! String) *"))
        #expect(try runner.run(["use"]).stdout.contains("work  \(jiro["id"] as! String)  jiro@contoso.com"))
        // Signing the default out clears it, and says so.
        let out = try runner.run(["logout", "jiro@contoso.com", "--local"])
        #expect(out.stdout.contains("It was work's default account; work has none now."), "\(out.stdout)")
        #expect(try runner.run(["use"]).stdout.contains("No default accounts"))
        // --clear removes one.
        #expect(try runner.run(["use", "taro@contoso.com"]).status == 0)
        #expect(try runner.run(["use", "--clear", "work"]).stdout.contains("work has no default account now"))
        #expect(try runner.run(["use", "--clear", "work"]).stdout.contains("work has no default account."))
        // A mistyped provider is named as one, exit 2 (it said "nosuch has no default account", exit 0).
        let typo = try runner.run(["use", "--clear", "nosuch"])
        #expect(typo.status == 2 && typo.stderr.contains("no provider \"nosuch\""), "\(typo.stderr)")
    }

    /// The deck marks the default (`*` after the username) and sets it with `*`.
    @Test func theDeckMarksAndSetsTheDefault() throws {
        let binary = runner.executable
        let s = try TmuxSession(environment: runner.environment.merging(["TERM": "xterm-256color"]) { $1 }, command: "\(binary); echo EXIT=$?")
        try s.waitFor(text: "jiro@contoso.com")
        try s.send("/")
        try s.send(literal: "jiro")
        try s.send("Enter")
        try s.waitFor("jiro's row alone") { $0.contains("jiro@contoso.com") && !$0.contains("taro@contoso.com") }
        try s.send("*")
        try s.waitFor(text: "is now the default of work")
        try s.waitFor(text: "jiro@contoso.com *")
        try s.send("q")
        try s.waitFor(text: "EXIT=0")
        let token = try runner.run(["token", "work"]), jiros = try runner.run(["token", "jiro@contoso.com"])
        #expect(token.status == 0 && token.stdout == jiros.stdout)
    }

    /// Signing the default out in the deck clears it, as `logout` does (issue 38): left set, the
    /// provider id would say its default is gone rather than name the account that is left.
    @Test func theDecksSignOutClearsTheDefault() throws {
        #expect(try runner.run(["use", "jiro@contoso.com"]).status == 0)
        let s = try TmuxSession(environment: runner.environment.merging(["TERM": "xterm-256color"]) { $1 }, command: "\(runner.executable); echo EXIT=$?")
        try s.waitFor(text: "jiro@contoso.com *")
        try s.send("/")
        try s.send(literal: "jiro")
        try s.send("Enter")
        try s.waitFor("jiro's row alone") { $0.contains("jiro@contoso.com") && !$0.contains("taro@contoso.com") }
        try s.send("d")
        try s.waitFor(text: "y sign out")
        try s.send("y")
        try s.waitFor(text: "Signed out")
        try s.send("q")
        try s.waitFor(text: "EXIT=0")
        #expect(try runner.run(["use"]).stdout.contains("No default accounts"))
        let token = try runner.run(["token", "work"]), taros = try runner.run(["token", "taro@contoso.com"])
        #expect(token.status == 0 && token.stdout == taros.stdout, "\(token.stderr)")
    }

    /// Pruning the default clears it and says so.
    @Test func pruningTheDefaultClearsIt() throws {
        #expect(try runner.run(["use", "jiro@contoso.com"]).status == 0)
        // The work provider leaves the config: its accounts are stale ("provider removed").
        try home.writeConfig("[[provider]]\nid = \"gl\"\nkind = \"oidc\"\nclient_id = \"x\"\nendpoints = { issuer = \"https://idp.example\" }\n")
        let pruned = try runner.run(["prune", "--yes"])
        #expect(pruned.status == 0 && pruned.stderr.contains("was work's default account; work has none now"), "\(pruned.stdout) \(pruned.stderr)")
        #expect(try runner.run(["use"]).stdout.contains("No default accounts"))
    }
}
