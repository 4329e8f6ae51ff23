import Testing
import Foundation
import AuthDeckTestSupport

/// Issue 40: `import cookies --from chromium` reads a profile Chromium itself made. Debian's
/// headless Chromium visits a page served as `contoso.sharepoint.com` over TLS that sets
/// FedAuth (host-only) and rtFa (`.sharepoint.com`) as SharePoint does, quits, and authdeck
/// decrypts both from the profile: `v10` with `--password-store=basic`, `v11` with the key
/// Chromium keeps in gnome-keyring on a private session bus.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
                             "SKIPPED: /usr/bin/chromium is missing — the Chromium profile proof did not run"))
struct BrowserCookieImportTests {
    let home = TempDirectory("authdeck-chromium")
    let runner: BinaryRunner
    let server: SharePointCookieServer

    init() throws {
        runner = BinaryRunner.authdeck(home: home)
        server = try SharePointCookieServer(in: home)
        try home.writeConfig("""
            [[provider]]
            id = "sp"
            kind = "sharepoint"
            options = { site = "https://contoso.sharepoint.com", mode = "legacy" }

            """)
    }

    /// Chromium's command line that signs in on the fixture page and quits (`--dump-dom`).
    func chromium(profile: String, store: String) -> String {
        let args = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--user-data-dir=\(profile)", "--password-store=\(store)",
                    "--host-resolver-rules=MAP contoso.sharepoint.com 127.0.0.1:\(server.port)",
                    "--ignore-certificate-errors-spki-list=\(server.spki)", "--dump-dom", "https://contoso.sharepoint.com/sharepoint-signin"]
        return "/usr/bin/chromium " + args.map { "'\($0)'" }.joined(separator: " ")
    }

    func schemes(_ profile: String) throws -> String {
        try BinaryRunner(executable: "/usr/bin/sqlite3").run([profile + "/Default/Cookies",
            "SELECT name, substr(CAST(encrypted_value AS TEXT), 1, 3) FROM cookies ORDER BY name"]).stdout
    }

    @Test func aChromiumProfileWithoutAKeyringImportsBothCookies() throws {
        let profile = home.file("chromium-basic")
        let run = try BinaryRunner(executable: "/bin/sh", environment: ["PATH": "/usr/bin:/bin", "HOME": home.path]).run(
            ["-c", chromium(profile: profile, store: "basic") + " 2>/dev/null"], timeout: 90)
        try #require(run.stdout.contains("{}"), "Chromium loaded the page: \(run.stdout)")
        #expect(try schemes(profile) == "FedAuth|v10\nrtFa|v10\n", "Chromium wrote v10 values")
        let r = try runner.run(["import", "cookies", "--from", "chromium", "--profile", profile, "--provider", "sp", "--username", "taro@contoso.com"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Imported 2 cookies for contoso.sharepoint.com") && r.stdout.contains("(FedAuth, rtFa)"), "\(r.stdout)")
        let jar = try runner.run(["cookies", "taro@contoso.com"]).stdout
        #expect(jar.contains("#HttpOnly_contoso.sharepoint.com\tFALSE\t/\tTRUE\t") && jar.contains("\tFedAuth\tfed-from-curl"), "\(jar)")
        #expect(jar.contains("#HttpOnly_.sharepoint.com\tTRUE\t/\tTRUE\t") && jar.contains("\trtFa\trtfa-from-curl"), "\(jar)")
        // The expiry is the cookie's own (Max-Age=3600 from Chromium's 1601-based microseconds).
        let expiry = jar.split(separator: "\n").first { $0.contains("\tFedAuth\t") }.map { Int($0.split(separator: "\t")[4]) ?? 0 } ?? 0
        #expect(abs(expiry - Int(Date().timeIntervalSince1970) - 3600) < 120, "\(jar)")
        // No private copy is left in the runtime directory or the temporary directory.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: home.path))?.filter { $0.hasPrefix("authdeck-import-") } ?? []
        #expect(left.isEmpty, "\(left)")
    }

    /// A value encrypted with another key is named with the reason and never imported:
    /// FedAuth's value is replaced by one encrypted as Chromium would, but with another key.
    @Test func aValueEncryptedWithAnotherKeyIsNamedNotImported() throws {
        let profile = home.file("chromium-other-key")
        _ = try BinaryRunner(executable: "/bin/sh", environment: ["PATH": "/usr/bin:/bin", "HOME": home.path]).run(
            ["-c", chromium(profile: profile, store: "basic") + " 2>/dev/null"], timeout: 90)
        let other = try BinaryRunner(executable: "/bin/sh", environment: ["PATH": "/usr/bin:/bin"]).run(["-c", """
            { printf contoso.sharepoint.com | openssl dgst -sha256 -binary; printf other-value; } \
              | openssl enc -aes-128-cbc -K 00112233445566778899aabbccddeeff -iv 20202020202020202020202020202020 | od -An -tx1 | tr -d ' \\n'
            """])
        try #require(other.status == 0 && other.stdout.count == 96, "\(other.stdout)\(other.stderr)")
        let damage = try BinaryRunner(executable: "/usr/bin/sqlite3").run([profile + "/Default/Cookies",
            "UPDATE cookies SET encrypted_value = X'763130' || X'\(other.stdout)' WHERE name = 'FedAuth'"])
        try #require(damage.status == 0, "\(damage.stderr)")
        let r = try runner.run(["import", "cookies", "--from", "chromium", "--profile", profile, "--provider", "sp"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Imported 1 cookie for contoso.sharepoint.com") && r.stdout.contains("(rtFa)"), "\(r.stdout)")
        #expect(r.stdout.contains("Left out FedAuth, which does not decrypt with the browser's key (wrong key, or the value is damaged)."), "\(r.stdout)")
        #expect(!(try runner.run(["cookies", "imported"]).stdout.contains("FedAuth")))
    }

    /// `v11`: Chromium with gnome-keyring keeps its key as "Chromium Safe Storage" in the
    /// Secret Service; authdeck reads it there (through libsecret, on the same private bus).
    /// Without a keyring, the values are named with the reason and nothing is imported.
    @Test(.enabled(if: KeySourceTests.keyringTools, "SKIPPED: gnome-keyring, dbus or libsecret-tools missing — the v11 proof did not run"))
    func aChromiumProfileKeyedInTheSecretServiceImportsBothCookies() throws {
        let profile = home.file("chromium-keyring"), out = home.file("v11")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let script = KeySourceTests.keyringSession + """
            \(chromium(profile: profile, store: "gnome-libsecret")) > \(out)/chromium.out 2>/dev/null
            secret-tool search --all application chromium > \(out)/item.out 2>&1
            "$AUTHDECK" import cookies --from chromium --profile '\(profile)' --provider sp --username taro@contoso.com > \(out)/import.out 2> \(out)/import.err
            echo $? > \(out)/import.rc
            """
        let run = try BinaryRunner(executable: "/usr/bin/dbus-run-session", environment: runner.environment.merging([
            "AUTHDECK": runner.executable, "XDG_RUNTIME_DIR": home.path, "PATH": "/usr/bin:/bin",
        ]) { _, new in new }).run(["--", "sh", "-c", script], timeout: 120)
        func file(_ name: String) -> String { (try? String(contentsOfFile: out + "/" + name, encoding: .utf8)) ?? "" }
        #expect(run.status == 0, "\(run.stderr)")
        try #require(file("chromium.out").contains("{}"), "Chromium loaded the page: \(file("chromium.out"))")
        #expect(file("item.out").contains("label = Chromium Safe Storage"), "\(file("item.out"))")
        #expect(try schemes(profile) == "FedAuth|v11\nrtFa|v11\n", "Chromium wrote v11 values")
        #expect(file("import.rc").hasPrefix("0"), "\(file("import.err"))")
        #expect(file("import.out").contains("Imported 2 cookies for contoso.sharepoint.com") && file("import.out").contains("(FedAuth, rtFa)"), "\(file("import.out"))")
        let jar = try runner.run(["cookies", "taro@contoso.com"]).stdout
        #expect(jar.contains("\tFedAuth\tfed-from-curl") && jar.contains("\trtFa\trtfa-from-curl"), "\(jar)")

        // No session bus: no keyring to ask, said by cookie, and nothing imported.
        let noBus = try runner.run(["import", "cookies", "--from", "chromium", "--profile", profile, "--provider", "sp", "--username", "nobus"],
                                   env: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home.file("no-bus"))"], timeout: 40)
        #expect(noBus.status == 1, "\(noBus.stdout)\(noBus.stderr)")
        #expect(noBus.stderr.contains("no unexpired cookies for contoso.sharepoint.com (2 cookies read, FedAuth encrypted with the keyring's key (v11), which could not be read: "),
                "\(noBus.stderr)")
        #expect(noBus.stderr.contains("nothing was imported"), "\(noBus.stderr)")
    }

    /// `--from` finds each browser's database where it keeps it on Linux: Chrome's and Edge's
    /// `Default` profile (newer versions under `Network/`) in `$XDG_CONFIG_HOME`, a named
    /// profile, and Firefox's installation default through `profiles.ini`; a profile that is not
    /// there is named with where it was looked for.
    @Test func eachBrowserIsFoundWhereItKeepsItsProfile() throws {
        let made = home.file("chromium-made")
        _ = try BinaryRunner(executable: "/bin/sh", environment: ["PATH": "/usr/bin:/bin", "HOME": home.path]).run(
            ["-c", chromium(profile: made, store: "basic") + " 2>/dev/null"], timeout: 90)
        let fm = FileManager.default
        for dir in ["google-chrome/Default/Network", "microsoft-edge/Profile 1"] {
            try fm.createDirectory(atPath: home.file("config/" + dir), withIntermediateDirectories: true)
            try fm.copyItem(atPath: made + "/Default/Cookies", toPath: home.file("config/\(dir)/Cookies"))
        }
        let chrome = try runner.run(["import", "cookies", "--from", "chrome", "--provider", "sp", "--username", "chrome@contoso.com"])
        #expect(chrome.status == 0 && chrome.stdout.contains("Imported 2 cookies for contoso.sharepoint.com"), "\(chrome.stdout)\(chrome.stderr)")
        let edge = try runner.run(["import", "cookies", "--from", "edge", "--profile", "Profile 1", "--provider", "sp", "--username", "edge@contoso.com"])
        #expect(edge.status == 0 && edge.stdout.contains("Imported 2 cookies for contoso.sharepoint.com"), "\(edge.stdout)\(edge.stderr)")
        let missing = try runner.run(["import", "cookies", "--from", "chromium", "--provider", "sp"])
        #expect(missing.status == 1 && missing.stderr.contains("no Chromium cookie database for profile \"Default\" (looked for \(home.file("config/chromium/Default/Network/Cookies"))"),
                "\(missing.stderr)")

        let firefox = home.file(".mozilla/firefox")
        try fm.createDirectory(atPath: firefox + "/abcd.default-release", withIntermediateDirectories: true)
        try """
            [Profile1]
            Name=old
            IsRelative=1
            Path=zzzz.old
            Default=1

            [Profile0]
            Name=default-release
            IsRelative=1
            Path=abcd.default-release

            [Install4F96D1932A9F858E]
            Default=abcd.default-release
            Locked=1
            """.write(toFile: firefox + "/profiles.ini", atomically: true, encoding: .utf8)
        let future = Int(Date().timeIntervalSince1970) + 86_400
        let sqlite = try BinaryRunner(executable: "/usr/bin/sqlite3", environment: ["PATH": "/usr/bin:/bin"]).run([firefox + "/abcd.default-release/cookies.sqlite", """
            CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, name TEXT, value TEXT, host TEXT, path TEXT, expiry INTEGER, isSecure INTEGER, isHttpOnly INTEGER);
            INSERT INTO moz_cookies (name, value, host, path, expiry, isSecure, isHttpOnly) VALUES
              ('FedAuth', 'ff-fedauth', 'contoso.sharepoint.com', '/', \(future), 1, 1), ('rtFa', 'ff-rtfa', '.sharepoint.com', '/', \(future), 1, 1);
            """])
        try #require(sqlite.status == 0, "\(sqlite.stderr)")
        let ff = try runner.run(["import", "cookies", "--from", "firefox", "--provider", "sp", "--username", "ff@contoso.com"])
        #expect(ff.status == 0 && ff.stdout.contains("Imported 2 cookies for contoso.sharepoint.com"), "\(ff.stdout)\(ff.stderr)")
        let named = try runner.run(["import", "cookies", "--from", "firefox", "--profile", "default-release", "--provider", "sp", "--username", "ff@contoso.com"])
        #expect(named.status == 0, "\(named.stderr)")
        let unknown = try runner.run(["import", "cookies", "--from", "firefox", "--profile", "work", "--provider", "sp"])
        #expect(unknown.status == 1 && unknown.stderr.contains("profiles.ini has no profile \"work\" (profiles: \"old\", \"default-release\")"), "\(unknown.stderr)")
        let usage = try runner.run(["import", "cookies", "--from", "opera", "--provider", "sp"])
        #expect(usage.status == 2 && usage.stderr.contains("--from must be one of chrome, chromium, edge, firefox"), "\(usage.stderr)")
    }
}
