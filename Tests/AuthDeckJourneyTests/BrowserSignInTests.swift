import Testing
import Foundation
import AuthDeckTestSupport

/// Issue 40, item 3: `authdeck login sp --browser` signs in through a real browser window and
/// keeps its cookies. Debian's headless Chromium, started by authdeck on a private profile with
/// the DevTools pipe, opens `https://contoso.sharepoint.com/` — mapped to the emulator behind a
/// TLS front with a test certificate — and lands on the emulator's sign-in page; the test types
/// into the form as a person would (Tests/harness/browser-person, a second DevTools client on
/// the test-only port), and the cookies authdeck read then open the site's `/_api/contextinfo`
/// through curl. Closing the window, the timeout and Ctrl-C end the browser and leave nothing.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") && MSALPython.path != nil,
                             "SKIPPED: /usr/bin/chromium or the tests' venv (AUTHDECK_TEST_PYTHON) is missing — the browser sign-in proof did not run"))
struct BrowserSignInTests {
    let home = TempDirectory("authdeck-window")
    let idp: EmulatorProcess
    let front: LiveProcess
    let port: Int
    let cert: String
    let runner: BinaryRunner

    static var harness: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../harness/browser-person").standardized.path
    }

    init() throws {
        idp = try EmulatorProcess()
        let made = try SharePointCookieServer.certificate(in: home)
        cert = made.cert
        let free = FreePort.pick()
        let proxy = URL(fileURLWithPath: Self.harness).deletingLastPathComponent().appendingPathComponent("tls-proxy").path
        front = try LiveProcess(proxy, [String(free), idp.url, made.cert, made.key, "none"], environment: ["PATH": "/usr/bin:/bin"])
        _ = try front.waitFor("the site's TLS front") { $0.contains("ready") ? true : nil }
        port = Int(free)
        // The test's browser switches (debug builds only): headless as root, the site's name
        // mapped to the front, its one test key trusted, and a DevTools port for the person.
        let switches = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--remote-debugging-port=0",
                        "--host-resolver-rules=MAP contoso.sharepoint.com 127.0.0.1:\(port)",
                        "--ignore-certificate-errors-spki-list=\(made.spki)"]
        runner = BinaryRunner.authdeck(home: home, ["TMPDIR": home.path, "AUTHDECK_TEST_BROWSER_ARGS": switches.joined(separator: "\n")])
        try home.writeConfig("""
            [[provider]]
            id = "sp"
            kind = "sharepoint"
            flow = "browser"
            options = { site = "https://contoso.sharepoint.com/", site_url = "\(idp.url)", browser = "/usr/bin/chromium" }

            """)
    }

    /// `authdeck login sp --browser …`, running while the person acts.
    func login(_ extra: [String]) throws -> LiveProcess {
        try LiveProcess(runner.executable, ["login", "sp", "--browser"] + extra, environment: runner.environment)
    }

    /// The person at the window (`browser-person`), in `mode`.
    func person(_ mode: String) throws -> BinaryRunner.Result {
        try BinaryRunner(executable: MSALPython.path!, environment: ["PATH": "/usr/bin:/bin"]).run([Self.harness, home.path, mode], timeout: 90)
    }

    /// What of the window is left: profiles in TMPDIR, and processes naming one.
    func leftovers() -> [String] {
        let profiles = ((try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []).filter { $0.hasPrefix("authdeck-browser-") }
        let processes = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { pid in
            guard Int(pid) != nil, let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: cmdline, as: UTF8.self).contains(home.path + "/authdeck-browser-")
        }
        return profiles + processes.map { "process \($0)" }
    }

    /// Nothing of the window left, waited for briefly (the browser's helpers end after it).
    func expectNothingLeft() {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !leftovers().isEmpty { usleep(100_000) }
        #expect(leftovers().isEmpty, "\(leftovers())")
    }

    func accounts() throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(try runner.run(["accounts", "--json"]).stdout.utf8)) as? [[String: Any]])
    }

    /// curl itself asks the site for its context info with `jar` (nil: no cookies).
    func contextInfo(jar: String?) throws -> BinaryRunner.Result {
        try BinaryRunner(executable: "/usr/bin/curl", environment: ["PATH": "/usr/bin:/bin"]).run(
            ["-sS", "-w", "\nstatus %{http_code}", "--cacert", cert, "--resolve", "contoso.sharepoint.com:\(port):127.0.0.1", "-X", "POST",
             "-H", "Accept: application/json;odata=verbose"] + (jar.map { ["-b", $0] } ?? [])
            + ["https://contoso.sharepoint.com:\(port)/_api/contextinfo"])
    }

    @Test func aPersonSignsInInChromiumAndTheCookiesOpenTheSite() throws {
        let login = try login(["--timeout", "90s", "--username", "taro@contoso.com"])
        let typist = try person("wrong")
        let status = try login.wait(timeout: 90)
        #expect(status == 0, "\(login.stderr)\nperson:\n\(typist.stdout)")
        // The person met the site's own page, typed a wrong password, read the error, and
        // signed in; authdeck waited meanwhile.
        #expect(typist.stdout.contains("form https://contoso.sharepoint.com/_layouts/15/authenticate.aspx?Source=%2F"), "\(typist.stdout)")
        #expect(typist.stdout.contains("error-shown We couldn't sign you in: the user name or password is wrong."), "\(typist.stdout)")
        #expect(typist.stdout.contains("typed"), "\(typist.stdout)")
        #expect(login.stderr.contains("Sign in to contoso.sharepoint.com in the browser window that opens (/usr/bin/chromium)"), "\(login.stderr)")
        // The site's own expiry (five hours, a few seconds of which went by).
        // (A countdown under a minute gone by reads "5h 00m".)
        #expect(login.stdout.contains("Signed in as taro@contoso.com (sp/")
                && ["the cookies expire in 4h 5", "the cookies expire in 5h 00m"].contains { login.stdout.contains($0) }, "\(login.stdout)")
        expectNothingLeft()

        // Both cookies, as SharePoint set them: FedAuth the site's own, rtFa the tenant's.
        let jarText = try runner.run(["cookies", "taro@contoso.com"]).stdout
        #expect(jarText.contains("#HttpOnly_contoso.sharepoint.com\tFALSE\t/\tTRUE\t") && jarText.contains("\tFedAuth\t"), "\(jarText)")
        #expect(jarText.contains("#HttpOnly_.sharepoint.com\tTRUE\t/\tTRUE\t") && jarText.contains("\trtFa\t"), "\(jarText)")
        let expiry = jarText.split(separator: "\n").first { $0.contains("\tFedAuth\t") }.map { Int($0.split(separator: "\t")[4]) ?? 0 } ?? 0
        #expect(abs(expiry - Int(Date().timeIntervalSince1970) - 5 * 3600) < 120, "the site's own expiry: \(jarText)")
        let rows = try accounts()
        #expect(rows.count == 1 && rows.first?["state"] as? String == "signed_in", "\(rows)")
        #expect(rows.first?["expires_at"] as? String != nil, "\(rows)")

        // The cookies open the site; without them it refuses.
        let jar = home.file("jar.txt")
        try jarText.write(toFile: jar, atomically: true, encoding: .utf8)
        let opened = try contextInfo(jar: jar)
        #expect(opened.stdout.hasSuffix("status 200") && opened.stdout.contains("FormDigestValue"), "\(opened.stdout)\(opened.stderr)")
        #expect(try contextInfo(jar: nil).stdout.hasSuffix("status 403"))

        let events = try runner.run(["events", "--json"]).stdout
        #expect(events.contains("2 cookies for contoso.sharepoint.com from a sign-in in chromium"), "\(events)")
        #expect(!events.contains(jarText.split(separator: "\n").first { $0.contains("\tFedAuth\t") }.map { String($0.split(separator: "\t")[6]) } ?? "?"))

        // Signing in again keeps one account (the same user's, cookies replaced).
        let again = try self.login(["--timeout", "90s", "--username", "taro@contoso.com"])
        _ = try person("signin")
        #expect(try again.wait(timeout: 90) == 0, "\(again.stderr)")
        #expect(try accounts().count == 1)
        expectNothingLeft()
    }

    /// The deck's one key: the cookies have expired and cannot be renewed silently, so Enter on
    /// the account opens the same window, the person signs in there again, and the row is back.
    @Test func enterInTheDeckOpensTheWindowAgain() throws {
        try idp.admin("lifetimes", #"{"cookie":4}"#)
        let login = try login(["--timeout", "90s", "--username", "taro@contoso.com"])
        let first = try person("signin")
        #expect(try login.wait(timeout: 90) == 0, "\(login.stderr)\n\(first.stdout)")
        try idp.admin("lifetimes", #"{"cookie":3600}"#)
        let s = try TmuxSession(environment: runner.environment.merging(["TERM": "xterm-256color"]) { _, new in new }, command: runner.executable)
        try s.waitFor("the cookies to expire on screen", timeout: 30) { screen in
            screen.split(separator: "\n").contains { $0.contains("taro@contoso.com") && $0.contains("expired") }
        }
        try s.send("Enter")
        try s.waitFor(text: "Sign in to contoso.sharepoint.com in the browser window", timeout: 30)
        let again = try person("signin")
        try s.waitFor("the account signed in again", timeout: 60) { screen in
            screen.contains("Signed in sp/taro@contoso.com") && !screen.split(separator: "\n").contains { $0.contains("taro@contoso.com") && $0.contains("expired") }
        }
        #expect(again.stdout.contains("typed"), "\(again.stdout)")
        try s.send("q")
        expectNothingLeft()
        let rows = try accounts()
        #expect(rows.count == 1 && rows.first?["state"] as? String == "signed_in", "\(rows)")
    }

    @Test func closingTheWindowCancelsAndSavesNothing() throws {
        let login = try login(["--timeout", "90s"])
        let closer = try person("close")
        let status = try login.wait(timeout: 60)
        #expect(closer.stdout.contains("closed"), "\(closer.stdout)")
        #expect(status == 1, "\(login.stderr)")
        #expect(login.stderr.contains("the browser window was closed before contoso.sharepoint.com set its sign-in cookies (FedAuth, rtFa); sign-in cancelled, nothing was saved"),
                "\(login.stderr)")
        #expect(try accounts().isEmpty)
        expectNothingLeft()
    }

    @Test func theTimeoutEndsTheBrowserAndDeletesItsProfile() throws {
        let login = try login(["--timeout", "6s"])
        // The window is there (the profile exists) while nobody signs in.
        _ = try login.waitFor("the window's profile") { _ in
            FileManager.default.fileExists(atPath: home.path) && !leftovers().filter { $0.hasPrefix("authdeck-browser-") }.isEmpty ? true : nil
        }
        let status = try login.wait(timeout: 40)
        #expect(status == 3, "\(login.stderr)")
        #expect(login.stderr.contains("no sign-in to contoso.sharepoint.com in the browser window within 6s (--timeout); nothing was saved"), "\(login.stderr)")
        #expect(try accounts().isEmpty)
        expectNothingLeft()
    }

    @Test func ctrlCClosesTheWindowAndDeletesItsProfile() throws {
        let login = try login(["--timeout", "90s"])
        _ = try login.waitFor(timeout: 60, "the window to be up") { _ in
            leftovers().contains { $0.hasPrefix("authdeck-browser-") && FileManager.default.fileExists(atPath: home.file($0 + "/DevToolsActivePort")) } ? true : nil
        }
        kill(login.pid, SIGINT)
        let status = try login.wait(timeout: 30)
        #expect(login.endedBySignal && status == SIGINT, "\(status) \(login.stderr)")
        #expect(login.stderr.contains("authdeck: sign-in cancelled; the browser was closed, its profile deleted and nothing was saved"), "\(login.stderr)")
        #expect(try accounts().isEmpty)
        expectNothingLeft()
    }
}

/// Which browser the window runs in, and the sentence when there is none.
@Suite struct SignInBrowserChoiceTests {
    let home = TempDirectory("authdeck-window-choice")

    func config(browser: String?) throws {
        try home.writeConfig("""
            [[provider]]
            id = "sp"
            kind = "sharepoint"
            flow = "browser"
            options = { site = "contoso.sharepoint.com"\(browser.map { ", browser = \"\($0)\"" } ?? "") }

            """)
    }

    @Test func noBrowserFoundNamesWhatWasLookedFor() throws {
        try config(browser: nil)
        let r = try BinaryRunner.authdeck(home: home, ["PATH": home.file("empty-bin")]).run(["login", "sp", "--browser", "--timeout", "5s"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("no Chromium-family browser for the sign-in window: looked for chromium, chromium-browser, google-chrome, google-chrome-stable, microsoft-edge, microsoft-edge-stable in PATH (\(home.file("empty-bin")))"),
                "\(r.stderr)")
        #expect(r.stderr.contains("name it with options.browser of provider \"sp\" in config.toml or AUTHDECK_BROWSER"), "\(r.stderr)")
    }

    @Test func aConfiguredBrowserThatIsNotThereIsNamed() throws {
        try config(browser: "/opt/nowhere/chrome")
        let r = try BinaryRunner.authdeck(home: home).run(["login", "sp", "--browser", "--timeout", "5s"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("options.browser of provider \"sp\" names \"/opt/nowhere/chrome\", which is not an executable file"), "\(r.stderr)")
    }

    @Test func onlyTheTestsOwnSwitchesAreTaken() throws {
        try config(browser: "/bin/true")
        let r = try BinaryRunner.authdeck(home: home, ["AUTHDECK_TEST_BROWSER_ARGS": "--headless=new\n--ignore-certificate-errors"])
            .run(["login", "sp", "--browser", "--timeout", "5s"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("AUTHDECK_TEST_BROWSER_ARGS (a test-only variable) holds \"--ignore-certificate-errors\", which is not one of"), "\(r.stderr)")
    }
}
