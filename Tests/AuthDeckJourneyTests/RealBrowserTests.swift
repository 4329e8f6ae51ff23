import Testing
import Foundation
import AuthDeckTestSupport

/// Where a person's real browser is: Debian's headless Chromium, its driver, and Selenium in
/// the tests' venv (scripts/test installs all three).
enum RealBrowser {
    static var harness: String {
        URL(fileURLWithPath: GlewlwydServer.harness).deletingLastPathComponent().appendingPathComponent("real-browser").path
    }

    /// `$BROWSER` for authdeck: the venv's python running the Selenium script; nil when missing.
    static var command: String? {
        guard let python = MSALPython.path, FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") else { return nil }
        return "\(python) \(harness)"
    }
}

/// `authdeck login --browser` with a real browser on glewlwyd's own login page: the person
/// reads, types the password, consents and lands on authdeck's loopback page — or closes the
/// tab, and authdeck gives up with a clear message and saves nothing.
@Suite(.serialized, .enabled(if: GlewlwydServer.installed && RealBrowser.command != nil,
                             "SKIPPED: glewlwyd, chromium, chromium-driver or Selenium is missing (./scripts/test installs them) — the real-browser proof did not run"))
struct RealBrowserTests {
    let server: GlewlwydServer
    let home = TempDirectory("authdeck-browser")
    let runner: BinaryRunner

    init() throws {
        server = try GlewlwydServer()
        runner = BinaryRunner.authdeck(home: home, [
            "GL_SECRET": GlewlwydServer.clientSecret, "BROWSER": RealBrowser.command ?? "",
            "REAL_BROWSER_LOG": home.file("browser.log"), "TMPDIR": home.path,
        ])
        try home.writeConfig(server.providerTOML())
    }

    var browserLog: String { (try? String(contentsOfFile: home.file("browser.log"), encoding: .utf8)) ?? "" }

    /// Waits for the browser to log `line` (authdeck may finish before the browser has read
    /// its last page); returns the log.
    func browserLog(after line: String, timeout: Double = 30) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !browserLog.contains(line), !browserLog.contains(" error ") { usleep(50_000) }
        return browserLog
    }

    func accounts() throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(try runner.run(["accounts", "--json"]).stdout.utf8)) as? [[String: Any]])
    }

    @Test func aPersonSignsInOnGlewlwydsLoginPageInChromium() throws {
        let r = try runner.run(["login", "gl", "--browser", "--timeout", "90s"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)\nbrowser:\n\(browserLog)")
        #expect(r.stdout.contains("Signed in as taro"))
        // The browser went through glewlwyd's login page (not a shortcut) to authdeck's page.
        let browserLog = browserLog(after: "final-text")
        #expect(browserLog.contains("step 1-login http://127.0.0.1:\(server.port)/login.html"), "\(browserLog)")
        #expect(browserLog.contains("final-url http://127.0.0.1:\(server.redirectPort)/callback"), "\(browserLog)")
        #expect(browserLog.contains("final-text Signed in You can close this tab and return to authdeck."), "\(browserLog)")
        let rows = try accounts()
        #expect(rows.count == 1)
        #expect(rows.first?["username"] as? String == "taro")
        #expect(rows.first?["state"] as? String == "signed_in")
    }

    /// Only the issuer's address in config.toml (issue 29): authdeck registers a client at
    /// glewlwyd (RFC 7591), and the person signs in through it in Chromium, consenting to
    /// the new client on glewlwyd's own page.
    @Test func aPersonSignsInWithOnlyAnIssuerURL() throws {
        let open = try GlewlwydServer(dynamicRegistration: true)
        try home.writeConfig(open.issuerOnlyTOML())
        let r = try runner.run(["login", "gl", "--browser", "--timeout", "90s"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)\nbrowser:\n\(browserLog)")
        #expect(r.stderr.contains("Registered authdeck as a client at \(open.issuer)"), "\(r.stderr)")
        #expect(browserLog(after: "final-text").contains("final-text Signed in You can close this tab and return to authdeck."), "\(browserLog)")
        #expect(try accounts().first?["username"] as? String == "taro")
    }

    @Test func aPersonWhoClosesTheTabGetsAClearTimeoutAndNothingIsSaved() throws {
        let r = try runner.run(["login", "gl", "--browser", "--timeout", "15s"], env: ["REAL_BROWSER_MODE": "close"], timeout: 60)
        #expect(r.status == 3, "\(r.stderr)\nbrowser:\n\(browserLog)")
        #expect(r.stderr.contains("no sign-in redirect arrived within 15s (--timeout); nothing was saved — run it again, with a longer --timeout if needed"), "\(r.stderr)")
        #expect(browserLog(after: "closing the tab").contains("closing the tab without signing in"), "\(browserLog)")
        #expect(try accounts().isEmpty)
    }
}
