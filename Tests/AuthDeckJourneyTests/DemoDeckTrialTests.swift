import Testing
import Foundation
import AuthDeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 39's deck items as the new user met them, in the demo and on the demo's seeded store,
/// in tmux at the sizes the trial named: the status line, the REALM column, the row selected at
/// start, the seed's story and a sign-in that lands in the wrong tenant again.
@Suite(.serialized) struct DemoDeckTrialTests {
    let home = TempDirectory("authdeck-demo-trial")
    var tmp: String { home.file("tmp") }
    var environment: [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"), "TMPDIR": tmp,
         "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color"]
    }
    var binary: String { BinaryRunner(product: "authdeck", environment: [:]).executable }
    /// The tenant the demo's `prod` provider pins (contoso), and the one dev@fabrikam.com is in.
    static let contoso = "72f988bf-86f1-41af-91ab-2d7cd011db47"

    init() throws {
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    static func rows(_ screen: String) -> [String] { screen.components(separatedBy: "\n") }

    /// The PROVIDER cell of the table's first row, and the provider the detail pane names.
    static func firstAndSelected(_ screen: String) -> (first: String, selected: String)? {
        let lines = rows(screen)
        guard lines.count > 3, let cells = lines[3].split(separator: "│").last,
              let first = cells.split(separator: " ").first.map(String.init),
              let detail = lines.first(where: { $0.contains("  provider ") }),
              let selected = detail.components(separatedBy: "  provider ").last?.split(separator: " ").first.map(String.init) else { return nil }
        return (first, selected)
    }

    /// The status line and the key-hint line of a `height`-row screen, trimmed.
    static func bottom(_ screen: String, height: Int) -> (status: String, hints: String) {
        let lines = rows(screen)
        guard lines.count >= height else { return ("", "") }
        return (lines[height - 2].trimmingCharacters(in: .whitespaces), lines[height - 1].trimmingCharacters(in: .whitespaces))
    }

    /// The demo at 120×40: it opens on its top row and keeps it there while the deck renews the
    /// SharePoint cookie (item 3: it followed that row to the seventh place); R's long Facebook
    /// remedy is one status line cut with `…` at 120×40, 80×24 and 60×15, the key hints kept,
    /// the whole remedy in the Facebook row's events (item 6); Enter on the wrong-tenant `prod`,
    /// approved as the same user, says it is still the wrong tenant (item 5).
    @Test func theDemoKeepsItsKeyHintsItsTopRowAndSaysTheTenant() throws {
        let s = try TmuxSession(width: 120, height: 40, environment: environment, command: "\(binary) demo; echo EXIT=$?")
        try s.waitFor("every provider kind", timeout: 90) { screen in
            ["Azure AD", "SharePoint", "Facebook", "Oracle AM", "OIDC"].allSatisfy(screen.contains)
        }
        // The cookie renewed (its message may give way to another renewal's at once).
        try s.waitFor("the SharePoint cookie renewed by the deck", timeout: 30) { screen in
            Self.rows(screen).contains { $0.contains("│ sp-intranet ") && $0.contains("● signed in") && $0.contains(" in 4h ") }
        }
        let opened = try s.waitFor("the top row selected after the renewal reordered the rows", timeout: 5) { screen in
            guard let (first, selected) = Self.firstAndSelected(screen) else { return false }
            return first == selected
        }
        #expect(Self.firstAndSelected(opened)?.selected == "fb", "the soonest to expire is on top: \(opened)")

        try s.send("R")
        let cut = try s.waitFor("R's Facebook remedy on the status line") { $0.contains("Facebook tokens cannot be renewed silently") }
        for (width, height) in [(120, 40), (80, 24), (60, 15)] {
            if width != 120 { try s.resize(width: width, height: height) }
            // Waited for whole: right after a resize tmux shows the old frame reflowed.
            let screen = width == 120 ? cut : try s.waitFor("the \(width)×\(height) frame, its status line cut, its key hints kept") {
                let (status, hints) = Self.bottom($0, height: height)
                return status.hasPrefix("fb/taro@contoso.com: Facebook") && status.hasSuffix("…") && hints.contains("? help")
            }
            let (status, hints) = Self.bottom(screen, height: height)
            #expect(status.hasPrefix("fb/taro@contoso.com: Facebook") && status.hasSuffix("…"), "one status line, cut at \(width)×\(height): \(status)")
            #expect(hints.contains("? help") && hints.contains("q quit"), "the key hints stay at \(width)×\(height): \(hints)")
        }
        try s.resize(width: 120, height: 40)
        // The whole remedy is the Facebook row's (the selected top row's) latest event.
        let detail = try s.waitFor("the whole remedy in the detail pane") { $0.contains("(no_app_secret)") }
        let pane = Self.rows(detail).map { $0.split(separator: "│").last.map(String.init) ?? "" }
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(pane.contains("renewal failed: Facebook tokens cannot be renewed silently without an app secret; sign in again: `authdeck login fb` (no_app_secret)"), "\(pane)")

        try s.send("/")
        try s.send(literal: "prod")
        try s.send("Enter")
        try s.waitFor("prod's row selected") { $0.contains("provider prod (Azure AD)") && !$0.contains("█") }
        try s.send("Enter")
        try s.waitFor(text: "and enter the code:", timeout: 30)
        let said = try s.waitFor("the sign-in's result", timeout: 30) { $0.contains("prod/dev@fabrikam.com: signed in") || $0.contains("Signed in prod/") }
        let (status, _) = Self.bottom(said, height: 40)
        #expect(status.hasPrefix("/prod · prod/dev@fabrikam.com: signed in, but to tenant ") && status.contains(", not 72f988bf-"), "\(status)")
        #expect(said.contains("✕ stale") && said.contains("stale — wrong tenant:"), "the row and its reason agree: \(said)")
        try s.send("Escape")
        try s.send("q")
        try s.waitFor(text: "EXIT=0", timeout: 30)
    }

    /// The demo's seeded store, as a script and the deck meet it 24 minutes later: `login` of
    /// the wrong tenant's user says so and exits 3 (item 5); hanako's events tell a declined
    /// sign-in, not "signed in: new account" (item 4); at 120 columns REALM is cut, not dropped,
    /// beside "expired 17m … ago" (item 2); the expired Facebook account's state says
    /// "expired" once (item 4).
    @Test func theSeededStoreLaterInTheDeckAndTheCLI() throws {
        let seed = try BinaryRunner(product: "authdeck", environment: environment).run(["demo", "--seed-only"], timeout: 90)
        #expect(seed.status == 0, "\(seed.stderr)")
        let lines = seed.stdout.split(separator: "\n").map(String.init)
        let emulator = try #require(lines.first { $0.hasPrefix("emulator ") }?.split(separator: " ").last.flatMap { Int32($0) }, "\(seed.stdout)")
        var stopped = false
        defer { if !stopped { kill(emulator, SIGTERM) } }
        let export = try #require(lines.first { $0.hasPrefix("export ") }, "\(seed.stdout)")
        var env = environment
        for pair in export.dropFirst("export ".count).split(separator: " ") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { env[kv[0]] = kv[1] }
        }
        let cli = BinaryRunner(product: "authdeck", environment: env)

        let login = try cli.run(["login", "prod", "--password", "--username", "dev@fabrikam.com"], env: ["AUTHDECK_PASSWORD": "dev-pass-123"])
        #expect(login.status == 3, "\(login.stdout)\(login.stderr)")
        #expect(login.stderr.contains("signed in, but to tenant ") && login.stderr.contains("not \(Self.contoso), which provider prod pins")
                && login.stderr.contains("`authdeck login prod`"), "\(login.stderr)")
        #expect(!login.stdout.contains("Signed in as"), "\(login.stdout)")

        let listed = try #require(try JSONSerialization.jsonObject(with: Data(try cli.run(["accounts", "--json"]).stdout.utf8)) as? [[String: Any]])
        let hanako = try #require(listed.first { $0["username"] as? String == "hanako@contoso.com" }?["id"] as? String)
        let events = try cli.run(["events", "--account", hanako])
        #expect(events.status == 0 && events.stdout.contains("sign-in failed: access_denied"), "\(events.stdout)\(events.stderr)")
        #expect(!events.stdout.contains("signed in"), "no sign-in that the account's state denies: \(events.stdout)")

        // The deck 24.5 minutes on, the emulator gone (its renewals fail and change nothing).
        kill(emulator, SIGTERM)
        stopped = true
        env["AUTHDECK_TEST_NOW"] = String(Int64(Date().timeIntervalSince1970) + 1470)
        let s = try TmuxSession(width: 120, height: 40, environment: env, command: "\(binary); echo EXIT=$?")
        let screen = try s.waitFor("the seeded deck with a token expired 17 minutes ago") { $0.contains("PROVIDERS") && $0.contains("expired 17m") }
        let header = try #require(Self.rows(screen).first { $0.contains("PROVIDER ") && $0.contains("EXPIRES") })
        #expect(header.contains("REALM"), "REALM is cut, not dropped: \(screen)")
        let prod = try #require(Self.rows(screen).first { $0.contains("dev@fabrikam.com") })
        #expect(prod.contains("…"), "the tenant id cut with its mark: \(prod)")

        try s.send("/")
        try s.send(literal: "fb")
        try s.send("Enter")
        let fb = try s.waitFor("the Facebook account's detail") { $0.contains("provider fb (Facebook)") && !$0.contains("█") }
        #expect(fb.contains("  expired — sign in again") && !fb.contains("expired — expired"), "\(fb)")
        try s.send("/")
        try s.send("Escape")
        try s.send("/")
        try s.send(literal: "hanako")
        try s.send("Enter")
        let h = try s.waitFor("hanako's detail with its events") { $0.contains("provider oidc (OIDC)") && $0.contains("sign-in failed") }
        #expect(h.contains("stale — sign-in never completed") && !h.contains("new account hanako"), "\(h)")
        try s.send("q")
        try s.waitFor(text: "EXIT=0", timeout: 30)
        // The seed's directory (the emulator removes nothing of a --seed-only demo).
        if let store = env["AUTHDECK_STORE"] { try? FileManager.default.removeItem(atPath: (store as NSString).deletingLastPathComponent) }
    }
}
