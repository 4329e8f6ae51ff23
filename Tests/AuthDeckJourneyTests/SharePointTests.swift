import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport

/// SharePoint cookies through the real binary and emulator: modern and legacy sign-in,
/// expiry and silent restoration, a jar curl accepts, and imports.
@Suite(.serialized) struct SharePointTests {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-sp")
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(idp.workAndIntranetTOML() + """
            [[provider]]
            id = "sp-legacy"
            kind = "sharepoint"
            options = { site = "contoso.sharepoint.com", site_url = "\(idp.url)", mode = "legacy", login_url = "\(idp.url)", remember_password = true }

            [[provider]]
            id = "sp-url"
            kind = "sharepoint"
            options = { site = "https://contoso.sharepoint.com/", site_url = "\(idp.url)", azure_provider = "work" }
            """)
    }

    func run(_ args: String..., env: [String: String] = [:]) throws -> BinaryRunner.Result {
        try runner.run(args, env: env)
    }

    /// POSTs to the site's contextinfo with a cookie jar, as a user's script would; returns the status.
    func contextInfo(jar: String) throws -> String {
        try jar.write(toFile: home.file("jar.txt"), atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-b", home.file("jar.txt"), "\(idp.url)/_api/contextinfo"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let code = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return code
    }

    /// `token` on a cookie account is a usage error (2) that names the right commands, never
    /// exit 3 (which sends a script into a sign-in that cannot give it a token).
    @Test func tokenOnACookieAccountPointsAtCookiesAndRequest() throws {
        try signInModern()
        let r = try run("token", "sp-intranet")
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("sp-intranet/taro@contoso.com is a SharePoint account: it holds cookies, not tokens"), "\(r.stderr)")
        #expect(r.stderr.contains("`authdeck cookies sp-intranet/") && r.stderr.contains("`authdeck request sp-intranet/"), "\(r.stderr)")
        #expect(!r.stderr.contains("scope ;"))
        // And the other way round: cookies of a token account.
        let c = try run("cookies", "work")
        #expect(c.status == 2 && c.stderr.contains("holds tokens, not cookies; use `authdeck token work/"), "\(c.stderr)")
    }

    func signInModern() throws {
        let work = try run("login", "work", "--password", "--username", "taro@contoso.com", env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        #expect(work.status == 0, "\(work.stderr)")
        let sp = try run("login", "sp-intranet")
        #expect(sp.status == 0, "\(sp.stderr)")
        #expect(sp.stderr.contains("Using the Azure AD account taro@contoso.com"))
    }

    /// GETs the emulator's Graph-like `/api/me` with `token` as curl would; returns the status.
    func graphStatus(token: String) throws -> String {
        try EmulatorProcess.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", "\(idp.url)/api/me"])
    }

    /// Attack 3: after `login sp-intranet` the Azure AD account also holds a token for the
    /// site's audience, and `token work` printed it (it lived longest), so Graph scripts got 401
    /// and `request`'s renew-on-401 resent it. With no `--scope` only a token of the provider's
    /// configured scopes is used; the site's is used when asked for by scope.
    @Test func tokenWorkAfterASharePointSignInIsNotTheSharePointToken() throws {
        try signInModern()
        // The site's token is the newest and longest-living one the account holds.
        _ = try run("cookies", "sp-intranet")
        for attempt in ["authdeck-full", "the front"] {
            let token = try run("token", "work")
            #expect(token.status == 0, "\(attempt): \(token.stderr)")
            #expect(try graphStatus(token: token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == "200",
                    "\(attempt): `token work` must print a token Graph accepts")
        }
        let site = try run("token", "work", "--scope", "https://contoso.sharepoint.com/.default")
        #expect(site.status == 0, "\(site.stderr)")
        #expect(try graphStatus(token: site.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == "401", "asked for by scope: the site's token")
        let request = try run("request", "work", "\(idp.url)/api/me")
        #expect(request.status == 0, "\(request.stderr)")
        #expect(request.stdout.contains("\"user\":\"taro@contoso.com\""))
    }

    /// Issue 31, item 4: `cookies` on expired but renewable cookies exited 3 ("run authdeck
    /// refresh") while `token` renewed silently, so `curl -b <(authdeck cookies …)` broke every
    /// few hours. Now `cookies` renews first, as `token` does, and the jar works.
    @Test func expiredRenewableCookiesAreRenewedByTheCookiesCommand() throws {
        try home.writeConfig("clock_skew = \"0s\"\n" + idp.workAndIntranetTOML())
        try idp.admin("lifetimes", #"{"cookie":2}"#)
        try signInModern()
        let first = try run("cookies", "sp-intranet")
        #expect(first.status == 0, "\(first.stderr)")
        // Past the cookies' two seconds (the emulator's clock moved on, and ours by waiting).
        try idp.admin("clock", #"{"advance":5}"#)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try !run("accounts", "--json").stdout.contains("\"expired\"") { usleep(200_000) }
        try idp.admin("lifetimes", #"{"cookie":3600}"#)
        let renewed = try run("cookies", "sp-intranet")
        #expect(renewed.status == 0, "\(renewed.stderr)")
        #expect(renewed.stdout != first.stdout, "new cookies")
        #expect(try contextInfo(jar: renewed.stdout) == "200")
    }

    @Test func modernCookiesFromTheAzureAccountWorkWithCurl() throws {
        try signInModern()
        let jar = try run("cookies", "sp-intranet")
        #expect(jar.status == 0)
        #expect(jar.stdout.contains("\tSPOIDCRL\tspoidcrl."))
        #expect(try contextInfo(jar: jar.stdout) == "200")
        let header = try run("cookies", "sp-intranet", "--format", "header")
        #expect(header.stdout.hasPrefix("Cookie: SPOIDCRL=spoidcrl."))
    }

    @Test func cookiesThatExpireAreRestoredByRefreshWithoutCredentials() throws {
        try signInModern()
        #expect(try contextInfo(jar: try run("cookies", "sp-intranet").stdout) == "200")
        // Six hours later at the provider: the 5-hour cookie and the 1-hour token are dead there.
        try idp.admin("clock", #"{"advance":21600}"#)
        #expect(try contextInfo(jar: try run("cookies", "sp-intranet").stdout) == "403")
        // `refresh --all` finds them with the contextinfo probe and renews through the Azure
        // AD account, without a password or a browser.
        let r = try run("refresh", "--all")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("renewed sp-intranet/"))
        #expect(try contextInfo(jar: try run("cookies", "sp-intranet").stdout) == "200")
        // And `refresh ACCOUNT` does the same on demand.
        try idp.admin("clock", #"{"advance":21600}"#)
        #expect(try run("refresh", "sp-intranet").status == 0)
        #expect(try contextInfo(jar: try run("cookies", "sp-intranet").stdout) == "200")
    }

    /// Found by the attack pass (issue 38): `site_url` moved after the sign-in made the next
    /// renewal send the Azure AD token minted for the site to the new host. The site's origin is
    /// the account's home, held like a refresh token's — for the modern exchange and for a
    /// remembered legacy password alike.
    @Test func aMovedSiteURLGetsNoTokenNorPassword() throws {
        try signInModern()
        #expect(try run("login", "sp-legacy", "--password", "--username", "taro@contoso.com", env: ["AUTHDECK_PASSWORD": "taro-pass-123"]).status == 0)
        let (server, elsewhere) = try HostileServerTests.server()
        try withExtendedLifetime(server) {
            try home.writeConfig(idp.workAndIntranetTOML().replacingOccurrences(of: #"site_url = "\#(idp.url)""#, with: #"site_url = "\#(elsewhere)""#) + """
                [[provider]]
                id = "sp-legacy"
                kind = "sharepoint"
                options = { site = "contoso.sharepoint.com", site_url = "\(elsewhere)", mode = "legacy", login_url = "\(elsewhere)", remember_password = true }
                """)
            for account in ["sp-intranet", "sp-legacy"] {
                let r = try run("refresh", account, "--force")
                #expect(r.status == ExitStatus.needsSignIn && r.stderr.contains("grant_moved"), "\(account): \(r.stderr)")
            }
            let received = try Data(contentsOf: URL(string: "\(elsewhere)/any/received")!)
            #expect(String(decoding: received, as: UTF8.self) == "[]", "the moved site received \(String(decoding: received, as: UTF8.self))")
        }
    }

    @Test func modernSignInNeedsTheAzureAccountFirst() throws {
        let r = try run("login", "sp-intranet")
        #expect(r.status == 3)
        #expect(r.stderr.contains("sign in there first: `authdeck login work`"))
    }

    @Test func legacySAMLSignInGivesFedAuthAndRtFa() throws {
        let r = try run("login", "sp-legacy", "--password", "--username", "taro@contoso.com", env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        #expect(r.status == 0, "\(r.stderr)")
        let jar = try run("cookies", "sp-legacy").stdout
        #expect(jar.contains("\tFedAuth\t") && jar.contains("\trtFa\t"))
        #expect(try contextInfo(jar: jar) == "200")
        // The remembered password (sealed) renews them silently after they expire.
        try idp.admin("clock", #"{"advance":21600}"#)
        #expect(try contextInfo(jar: try run("cookies", "sp-legacy").stdout) == "403")
        #expect(try run("refresh", "sp-legacy").status == 0)
        #expect(try contextInfo(jar: try run("cookies", "sp-legacy").stdout) == "200")
    }

    @Test func legacyFailuresAreNamed() throws {
        let wrong = try run("login", "sp-legacy", "--password", "--username", "taro@contoso.com", env: ["AUTHDECK_PASSWORD": "nope"])
        #expect(wrong.status == 3 && wrong.stderr.contains("the username or password is wrong"), "\(wrong.stderr)")
        let federated = try run("login", "sp-legacy", "--password", "--username", "jiro@contoso.com", env: ["AUTHDECK_PASSWORD": "jiro-pass-123"])
        #expect(federated.status == 1 && federated.stderr.contains("is a federated account"), "\(federated.stderr)")
        try idp.admin("legacy-auth", #"{"blocked":true}"#)
        let blocked = try run("login", "sp-legacy", "--password", "--username", "taro@contoso.com", env: ["AUTHDECK_PASSWORD": "taro-pass-123"])
        #expect(blocked.status == 1 && blocked.stderr.contains("legacy authentication is blocked"), "\(blocked.stderr)")
    }

    @Test func firefoxCookiesImportFromAFixture() throws {
        // A cookies.sqlite with Firefox's moz_cookies schema: two site cookies (one with a
        // millisecond expiry, as newer Firefox writes), one expired, one for another site.
        let db = home.file("cookies.sqlite")
        let future = Int(Date().timeIntervalSince1970) + 86_400
        let sql = """
            CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '', name TEXT, value TEXT,
              host TEXT, path TEXT, expiry INTEGER, lastAccessed INTEGER, creationTime INTEGER, isSecure INTEGER,
              isHttpOnly INTEGER, inBrowserElement INTEGER DEFAULT 0, sameSite INTEGER DEFAULT 0, rawSameSite INTEGER DEFAULT 0,
              schemeMap INTEGER DEFAULT 0);
            INSERT INTO moz_cookies (name, value, host, path, expiry, isSecure, isHttpOnly) VALUES
              ('FedAuth', 'ff-fedauth', 'contoso.sharepoint.com', '/', \(future), 1, 1),
              ('rtFa', 'ff-rtfa', '.sharepoint.com', '/', \(future * 1000), 1, 1),
              ('Old', 'x', 'contoso.sharepoint.com', '/', 1000, 1, 1),
              ('Other', 'y', 'example.org', '/', \(future), 0, 0);
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, sql]
        try p.run()
        p.waitUntilExit()
        let r = try run("import", "cookies", db, "--provider", "sp-intranet", "--username", "taro@contoso.com")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Imported 2 cookies for contoso.sharepoint.com"), "\(r.stdout)")
        #expect(r.stdout.contains("Left out 1 cookie of other sites and 1 expired cookie (Old)."), "\(r.stdout)")
        let jar = try run("cookies", "taro@contoso.com").stdout
        #expect(jar.contains("\tFedAuth\tff-fedauth") && jar.contains("\trtFa\tff-rtfa") && !jar.contains("Other"))
        #expect(jar.contains("\t\(future)\trtFa"), "millisecond expiry read as seconds")
        #expect(!FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "authdeck-import-"), "the private copy is removed")
        // A Netscape jar imports the same way; garbage is refused with the line named.
        try "contoso.sharepoint.com\tFALSE\t/\tTRUE\t\(future)\tFedAuth\tjar-value\n".write(toFile: home.file("c.txt"), atomically: true, encoding: .utf8)
        #expect(try run("import", "cookies", home.file("c.txt"), "--provider", "sp-intranet", "--username", "jar@contoso.com").status == 0)
        try "not\ta jar\n".write(toFile: home.file("bad.txt"), atomically: true, encoding: .utf8)
        let bad = try run("import", "cookies", home.file("bad.txt"), "--provider", "sp-intranet")
        #expect(bad.status == 1 && bad.stderr.contains("line 1: expected 7 tab-separated fields"))
    }

    /// Issue 40: a jar curl itself wrote after a SharePoint-like sign-in (host-only FedAuth,
    /// rtFa for `.sharepoint.com`, and another tenant's FedAuth) and a Firefox database give
    /// both of the site's cookies whether `options.site` is the host or the address bar's URL
    /// (a URL used to import rtFa alone, as "Imported 1 cookies").
    @Test func bothCookiesImportWhetherTheSiteIsAHostOrAURL() throws {
        let server = try SharePointCookieServer(in: home)
        let jar = home.file("curl-jar.txt")
        for (host, path) in [("contoso", "sharepoint-signin"), ("fabrikam", "other-site")] {
            let curl = try BinaryRunner(executable: "/usr/bin/curl", environment: ["PATH": "/usr/bin:/bin"]).run(
                ["-sS", "--cacert", server.cert, "--resolve", "\(host).sharepoint.com:\(server.port):127.0.0.1", "-b", jar, "-c", jar,
                 "https://\(host).sharepoint.com:\(server.port)/\(path)"])
            try #require(curl.status == 0, "\(curl.stderr)")
        }
        withExtendedLifetime(server) {}
        let written = try String(contentsOfFile: jar, encoding: .utf8)
        #expect(written.contains("#HttpOnly_contoso.sharepoint.com\tFALSE\t/\tTRUE\t") && written.contains("#HttpOnly_.sharepoint.com\tTRUE\t/\tTRUE\t"),
                "curl wrote FedAuth host-only and rtFa for the domain:\n\(written)")
        let db = home.file("both.sqlite")
        let future = Int(Date().timeIntervalSince1970) + 86_400
        let sqlite = try BinaryRunner(executable: "/usr/bin/sqlite3", environment: ["PATH": "/usr/bin:/bin"]).run([db, """
            CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '', name TEXT, value TEXT,
              host TEXT, path TEXT, expiry INTEGER, lastAccessed INTEGER, creationTime INTEGER, isSecure INTEGER,
              isHttpOnly INTEGER, inBrowserElement INTEGER DEFAULT 0, sameSite INTEGER DEFAULT 0, rawSameSite INTEGER DEFAULT 0,
              schemeMap INTEGER DEFAULT 0);
            INSERT INTO moz_cookies (name, value, host, path, expiry, isSecure, isHttpOnly) VALUES
              ('FedAuth', 'ff-fedauth', 'contoso.sharepoint.com', '/', \(future), 1, 1),
              ('rtFa', 'ff-rtfa', '.sharepoint.com', '/', \(future), 1, 1);
            """])
        try #require(sqlite.status == 0, "\(sqlite.stderr)")
        for (provider, n) in [("sp-intranet", 1), ("sp-url", 2)] {
            let fromCurl = try run("import", "cookies", jar, "--provider", provider, "--username", "curl\(n)@contoso.com")
            #expect(fromCurl.status == 0, "\(fromCurl.stderr)")
            #expect(fromCurl.stdout.contains("Imported 2 cookies for contoso.sharepoint.com") && fromCurl.stdout.contains("(FedAuth, rtFa)"),
                    "\(provider): \(fromCurl.stdout)")
            #expect(fromCurl.stdout.contains("Left out 1 cookie of other sites."), "\(provider): \(fromCurl.stdout)")
            let imported = try run("cookies", "curl\(n)@contoso.com").stdout
            #expect(imported.contains("\tFedAuth\tfed-from-curl") && imported.contains("\trtFa\trtfa-from-curl") && !imported.contains("other-tenant"),
                    "\(provider): \(imported)")
            let fromFirefox = try run("import", "cookies", db, "--provider", provider, "--username", "ff\(n)@contoso.com")
            #expect(fromFirefox.status == 0 && fromFirefox.stdout.contains("Imported 2 cookies for contoso.sharepoint.com"), "\(provider): \(fromFirefox.stdout)\(fromFirefox.stderr)")
            #expect(!fromFirefox.stdout.contains("Left out"), "\(fromFirefox.stdout)")
        }
        // One cookie is "1 cookie", and an import of nothing says what was read and why it was left out.
        try "contoso.sharepoint.com\tFALSE\t/\tTRUE\t\(future)\tFedAuth\tlone\n".write(toFile: home.file("one.txt"), atomically: true, encoding: .utf8)
        let one = try run("import", "cookies", home.file("one.txt"), "--provider", "sp-url", "--username", "one@contoso.com")
        #expect(one.stdout.contains("Imported 1 cookie for contoso.sharepoint.com"), "\(one.stdout)")
        try "example.org\tFALSE\t/\tTRUE\t\(future)\tA\tb\ncontoso.sharepoint.com\tFALSE\t/\tTRUE\t1000\tFedAuth\told\n"
            .write(toFile: home.file("none.txt"), atomically: true, encoding: .utf8)
        let none = try run("import", "cookies", home.file("none.txt"), "--provider", "sp-url")
        #expect(none.status == 1 && none.stderr.contains(
            "no unexpired cookies for contoso.sharepoint.com (2 cookies read, 1 cookie of other sites, 1 expired cookie of the site (FedAuth)); nothing was imported"),
                "\(none.stderr)")
    }

    /// Issue 40 §4: the emulator's SharePoint sign-in page is a web form a person fills in; good
    /// credentials end it as SharePoint Online does — FedAuth for the host only, rtFa for
    /// `.sharepoint.com` (when reached by that name), both Secure and HttpOnly — and the
    /// cookies then open `/_api/contextinfo`. Wrong ones show the form again with the error.
    @Test func theSitesSignInPageSetsTheCookiesAsSharePointDoes() throws {
        let curl = BinaryRunner(executable: "/usr/bin/curl", environment: ["PATH": "/usr/bin:/bin"])
        let page = try curl.run(["-sS", "\(idp.url)/_layouts/15/authenticate.aspx?Source=%2Fsites%2Fteam"])
        #expect(page.stdout.contains("<form method=post action=\"/_layouts/15/authenticate.aspx\">") && page.stdout.contains("id=password")
                && page.stdout.contains("name=Source value=\"/sites/team\""), "\(page.stdout)")
        func post(_ form: String) throws -> String {
            try curl.run(["-sS", "-D", "-", "-o", "/dev/null", "-H", "Host: contoso.sharepoint.com", "--data", form,
                          "\(idp.url)/_layouts/15/authenticate.aspx"]).stdout
        }
        let wrong = try curl.run(["-sS", "-D", "-", "--data", "username=taro%40contoso.com&password=nope&Source=%2F", "\(idp.url)/_layouts/15/authenticate.aspx"]).stdout
        #expect(wrong.hasPrefix("HTTP/1.1 200") && wrong.contains("the user name or password is wrong") && !wrong.lowercased().contains("set-cookie"), "\(wrong)")
        let good = try post("username=taro%40contoso.com&password=taro-pass-123&Source=%2Fsites%2Fteam")
        let lines = good.split(separator: "\r\n").map(String.init)
        #expect(lines.first?.hasPrefix("HTTP/1.1 302") == true && lines.contains("Location: /sites/team"), "\(good)")
        let fedAuth = try #require(lines.first { $0.hasPrefix("Set-Cookie: FedAuth=") }, "\(good)")
        let rtFa = try #require(lines.first { $0.hasPrefix("Set-Cookie: rtFa=") }, "\(good)")
        #expect(!fedAuth.contains("domain=") && fedAuth.hasSuffix("; path=/; secure; HttpOnly"), "FedAuth is host-only: \(fedAuth)")
        #expect(rtFa.contains("; domain=.sharepoint.com; path=/; secure; HttpOnly"), "rtFa is tenant-wide: \(rtFa)")
        // Only a path on the site is returned to: no open redirect.
        #expect(try post("username=taro%40contoso.com&password=taro-pass-123&Source=https%3A%2F%2Fevil.example%2F").contains("Location: /\r\n"))
        func value(_ header: String) -> String { String(header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1]) }
        let info = try curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-b", "FedAuth=\(value(fedAuth)); rtFa=\(value(rtFa))",
                                 "\(idp.url)/_api/contextinfo"])
        #expect(info.stdout == "200", "the page's cookies open the site: \(info.stdout)")
    }
}
