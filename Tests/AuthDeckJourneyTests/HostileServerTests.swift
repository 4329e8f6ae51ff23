import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// A provider whose token endpoint misbehaves (`Tests/harness/hostile-oauth`): each case
/// must end in a clear error and a non-zero exit, with the account's refresh token exactly as
/// it was — a hostile answer never overwrites or deletes a credential. One line per case is
/// printed with its outcome.
@Suite(.serialized) struct HostileServerTests {
    static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../harness/hostile-oauth").standardized.path

    /// Starts the hostile server (HTTPS with `cert`/`key`); returns it and its base URL.
    static func server(cert: String? = nil, key: String? = nil) throws -> (LiveProcess, String) {
        let port = FreePort.pick()
        let process = try LiveProcess(harness, [String(port)] + [cert, key].compactMap { $0 }, environment: ["PATH": "/usr/bin:/bin"])
        _ = try process.waitFor("the hostile server") { $0.contains("ready") ? true : nil }
        return (process, "\(cert == nil ? "http" : "https")://127.0.0.1:\(port)")
    }

    /// The account every case starts with: provider "h", an expired access token and the
    /// refresh token `rt-original` (or, for SharePoint, the cookie `fedauth-original`).
    static func original(cookie: Bool = false) -> StoredAccount {
        let now = SystemClock().now()
        let account = Account(id: "h/0000beef", providerId: "h", subject: "s-1", username: "taro@example.jp", createdAt: now - .days(1),
                              lastSignInAt: now - .days(1))
        if cookie {
            return StoredAccount(account: account, credentials: Credentials(
                cookies: [Cookie(id: "c1", name: "FedAuth", value: Secret("fedauth-original"), domain: "127.0.0.1", path: "/",
                                 expiresAt: now - .hours(1), secure: false, httpOnly: true)],
                extras: ["legacy.username": Secret("taro@example.jp"), "legacy.password": Secret("taro-pass")]))
        }
        return StoredAccount(account: account, credentials: Credentials(
            accessTokens: [AccessToken(id: "a1", value: Secret("at-original"), scopes: ["openid"],
                                       obtainedAt: now - .hours(2), expiresAt: now - .hours(1))],
            refreshToken: RefreshToken(id: "r1", value: Secret("rt-original"), generation: 1, obtainedAt: now - .days(1))))
    }

    /// The OIDC provider "h" at `issuer` (client secret "hostile-secret" from the environment,
    /// password grant allowed).
    static func oidcTOML(_ issuer: String) -> String {
        """
        [[provider]]
        id = "h"
        kind = "oidc"
        client_id = "authdeck-test"
        client_secret_env = "HOSTILE_SECRET"
        scopes = ["openid", "offline_access"]
        endpoints = { issuer = "\(issuer)" }
        options = { auth_method = "client_secret_post", allow_password = true }
        """
    }

    /// Runs `arguments` in a home whose config is `toml` and whose store holds `account`;
    /// returns the result, the account after and how many accounts the store holds after.
    func run(_ arguments: [String], toml: String, account: StoredAccount = original(), env: [String: String] = [:],
             timeout: TimeInterval = 90, home: TempDirectory = TempDirectory("authdeck-hostile")) throws -> (BinaryRunner.Result, StoredAccount?, Int) {
        let runner = BinaryRunner.authdeck(home: home, ["HOSTILE_SECRET": "hostile-secret"])
        try home.writeConfig(toml)
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        try store.insert(account)
        let result = try runner.run(arguments, env: env, timeout: timeout)
        return (result, try store.account(id: account.account.id), try store.accounts(includeQuarantined: true).count)
    }

    /// `authdeck refresh` of the original account at `issuer`.
    func refresh(issuer: String) throws -> (BinaryRunner.Result, StoredAccount?) {
        let (result, after, _) = try run(["refresh", "h/0000beef"], toml: Self.oidcTOML(issuer))
        return (result, after)
    }

    /// The line that says what went wrong: the last `authdeck:` line (a sign-in prints its
    /// prompt first), else the last line.
    static func verdict(_ stderr: String) -> String {
        let lines = stderr.split(separator: "\n").map(String.init)
        return lines.last { $0.hasPrefix("authdeck:") } ?? lines.last ?? "(no message)"
    }

    func expectNothingLost(_ mode: String, _ result: BinaryRunner.Result, _ after: StoredAccount?) {
        let line = Self.verdict(result.stderr)
        print("hostile \(mode): exit \(result.status): \(line)")
        #expect(result.status != 0, "\(mode) must fail")
        #expect(!line.isEmpty && line != "(no message)", "\(mode) must say why")
        #expect(after?.credentials.refreshToken?.value.exposedValue == "rt-original", "\(mode): the refresh token is kept")
        #expect(after?.credentials.refreshToken?.generation == 1)
        #expect(after?.credentials.accessTokens.map(\.value.exposedValue) == ["at-original"], "\(mode): nothing of the answer is stored")
        #expect(!result.stderr.contains("rt-hostile") && !result.stderr.contains("at-hostile"), "\(mode): no token in the message")
    }

    @Test(arguments: ["html", "html500", "badjson", "huge", "expires-negative", "expires-zero", "expires-string",
                      "expires-huge", "no-token-type", "slow"])
    func aHostileTokenEndpointChangesNothing(mode: String) throws {
        let (server, base) = try Self.server()
        let (result, after) = try withExtendedLifetime(server) { try refresh(issuer: "\(base)/\(mode)") }
        expectNothingLost(mode, result, after)
    }

    @Test func aSelfSignedCertificateIsRefusedAndCannotBeWaivedAway() throws {
        let dir = TempDirectory("authdeck-hostile-tls")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir.file("k.pem"), "-out", dir.file("c.pem"),
                             "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        let (server, base) = try Self.server(cert: dir.file("c.pem"), key: dir.file("k.pem"))
        let (result, after) = try withExtendedLifetime(server) { try refresh(issuer: "\(base)/expires-zero") }
        expectNothingLost("self-signed TLS", result, after)
        #expect(result.stderr.contains("TLS certificate not trusted"), "\(result.stderr)")
    }

    @Test(arguments: ["id-none", "id-expired", "id-aud", "id-iss", "id-forged"])
    func aSignInWithABadIdTokenSavesNothing(mode: String) throws {
        let (server, base) = try Self.server()
        let (result, after, count) = try withExtendedLifetime(server) {
            try run(["login", "h", "--password", "--username", "mallory@example.jp"], toml: Self.oidcTOML("\(base)/\(mode)"),
                    env: ["AUTHDECK_PASSWORD": "pw"])
        }
        expectNothingLost(mode, result, after)
        #expect(count == 1, "\(mode): no account was added")
        #expect(result.stderr.contains("the id_token was rejected"), "\(mode): \(result.stderr)")
    }

    @Test(arguments: ["iss-wrong"])
    func aForgedRedirectToTheLoopbackSavesNothing(mode: String) throws {
        let (server, base) = try Self.server()
        let dir = TempDirectory("authdeck-hostile-browser")
        let browser = dir.file("browser.sh")
        try "#!/bin/sh\nexec curl -s -L -o /dev/null \"$1\"\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        let (result, after, count) = try withExtendedLifetime(server) {
            try run(["login", "h", "--browser"], toml: Self.oidcTOML("\(base)/\(mode)"), env: ["BROWSER": browser], timeout: 60)
        }
        expectNothingLost(mode, result, after)
        #expect(count == 1, "\(mode): no account was added")
        #expect(result.stderr.contains("another issuer"), "\(mode): \(result.stderr)")
    }

    /// Issue 26: a redirect with the wrong state (the provider's, or one forged by any local
    /// process) no longer ends the sign-in; it is answered, counted and ignored, and the
    /// listener keeps waiting. Alone, it ends at the timeout with a message that counts it.
    @Test func aWrongStateAloneEndsAtTheTimeoutCountingTheIgnoredRedirect() throws {
        let (server, base) = try Self.server()
        let dir = TempDirectory("authdeck-hostile-browser")
        let browser = dir.file("browser.sh")
        try "#!/bin/sh\nexec curl -s -L -o /dev/null \"$1\"\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        let started = Date()
        let (result, after, count) = try withExtendedLifetime(server) {
            try run(["login", "h", "--browser", "--timeout", "5s"], toml: Self.oidcTOML("\(base)/state-wrong"), env: ["BROWSER": browser], timeout: 60)
        }
        let took = Date().timeIntervalSince(started)
        expectNothingLost("state-wrong", result, after)
        #expect(count == 1, "state-wrong: no account was added")
        #expect(took >= 5, "the wrong state did not end the wait (took \(took) s)")
        #expect(result.stderr.contains("no sign-in redirect arrived within 5s (--timeout); 1 redirect with the wrong state (not from this sign-in) was ignored; nothing was saved"),
                "\(result.stderr)")
    }

    /// Issue 26: a forged `GET /callback?state=wrong` and an idle connection, both from another
    /// local process, sent before the browser's redirect: the sign-in still completes, and
    /// promptly (the idle connection used to hold the listener 5 s).
    @Test func aForgedRedirectAndAnIdleConnectionBeforeTheRightOneStillSignIn() throws {
        let (server, base) = try Self.server()
        let dir = TempDirectory("authdeck-hostile-browser")
        let browser = dir.file("browser.sh")
        let idlePid = dir.file("idle.pid")
        try """
            #!/bin/sh
            uri=$(python3 -c 'import sys, urllib.parse as u; print(dict(u.parse_qsl(u.urlsplit(sys.argv[1]).query))["redirect_uri"])' "$1")
            python3 -c 'import socket, sys, time, urllib.parse as u; p = u.urlsplit(sys.argv[1]); s = socket.create_connection((p.hostname, p.port)); time.sleep(30)' "$uri" &
            echo $! > '\(idlePid)'
            sleep 0.3
            curl -s -o /dev/null "$uri?code=forged-code&state=forged"
            exec curl -s -L -o /dev/null "$1"

            """.write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        defer {
            if let pid = (try? String(contentsOfFile: idlePid, encoding: .utf8)).flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
                kill(pid, SIGKILL)
            }
        }
        let started = Date()
        let (result, after, count) = try withExtendedLifetime(server) {
            try run(["login", "h", "--browser", "--timeout", "30s"], toml: Self.oidcTOML("\(base)/good"), env: ["BROWSER": browser], timeout: 60)
        }
        let took = Date().timeIntervalSince(started)
        print("hostile forged-then-right: exit \(result.status) in \(String(format: "%.1f", took)) s: \(Self.verdict(result.stderr))")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(count == 2, "the right redirect signed mallory in")
        #expect(took < 5, "the idle connection must not hold up the right redirect (took \(took) s)")
        #expect(after?.credentials.refreshToken?.value.exposedValue == "rt-original", "the other account is untouched")
    }

    @Test func aDeviceCodeWithoutIntervalIsPolledEveryFiveSecondsUntilItExpires() throws {
        let (server, base) = try Self.server()
        let (result, after, count) = try withExtendedLifetime(server) {
            try run(["login", "h", "--device"], toml: Self.oidcTOML("\(base)/device-no-interval"), timeout: 60)
        }
        expectNothingLost("device-no-interval", result, after)
        #expect(count == 1)
        #expect(result.stderr.contains("expired"), "\(result.stderr)")
        let polls = try #require(JSONSerialization.jsonObject(with: Data(try EmulatorProcess.curl(["-s", "\(base)/device-no-interval/polls"]).utf8)) as? [Double])
        let gaps = zip(polls.dropFirst(), polls).map { $0 - $1 }
        print("hostile device-no-interval: \(polls.count) polls, gaps \(gaps.map { String(format: "%.1f", $0) })")
        #expect((1...3).contains(polls.count), "RFC 8628: 5 s default over a 12-s code, got \(polls.count) polls")
        #expect(gaps.allSatisfy { $0 >= 4.5 }, "never faster than the 5-s default: \(gaps)")
    }

    @Test(arguments: ["soap-fault", "cookie-elsewhere"])
    func aHostileSharePointSignInKeepsTheOldCookies(mode: String) throws {
        let (server, base) = try Self.server()
        let toml = """
            [[provider]]
            id = "h"
            kind = "sharepoint"
            options = { site = "127.0.0.1", site_url = "\(base)/\(mode)", mode = "legacy", login_url = "\(base)/\(mode)", remember_password = true }
            """
        let (result, after, count) = try withExtendedLifetime(server) {
            try run(["refresh", "h/0000beef"], toml: toml, account: Self.original(cookie: true))
        }
        let line = Self.verdict(result.stderr)
        print("hostile \(mode): exit \(result.status): \(line)")
        #expect(result.status != 0 && count == 1)
        #expect(after?.credentials.cookies.map(\.value.exposedValue) == ["fedauth-original"], "\(mode): the old cookie is kept")
        #expect(!result.stderr.contains("hostile-FedAuth") && !result.stderr.contains("\u{1B}"), "\(mode): no cookie, no escape: \(result.stderr)")
        #expect(result.stderr.contains(mode == "soap-fault" ? "quota of the token service is exhausted" : "no FedAuth cookie"), "\(mode): \(result.stderr)")
    }

    // MARK: hostile text (issue 26, section 2)

    /// The store's bytes as they lie on disk (database and WAL): `accounts.error_code` and
    /// `events.detail` are not sealed, so a secret or a server's junk there is in clear.
    static func storeBytes(_ home: TempDirectory) -> Data {
        let db = home.file("data/authdeck/authdeck.db")
        return [db, db + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }.reduce(Data(), +)
    }

    /// Whether `text` holds a byte or character that drives a terminal: ESC, BEL, CSI or a bidi override.
    static func drivesTheTerminal(_ text: String) -> Bool {
        text.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x202E, 0x2066].contains($0.value) }
    }

    /// The token endpoint answers `{"error": <what it was sent>}`: the refresh token on a
    /// refresh, the password on a password sign-in. The secret is printed nowhere and stored in
    /// clear nowhere (`error_code`, the audit trail); the code becomes "redacted_error".
    @Test(arguments: ["refresh", "password"])
    func anErrorCodeThatEchoesASecretIsNeitherPrintedNorStored(grant: String) throws {
        let (server, base) = try Self.server()
        let home = TempDirectory("authdeck-hostile-echo")
        let secret = grant == "refresh" ? "rt-original" : "hostile-pw-4242"
        let arguments = grant == "refresh" ? ["refresh", "h/0000beef"] : ["login", "h", "--password", "--username", "mallory@example.jp"]
        let (result, after, count) = try withExtendedLifetime(server) {
            try run(arguments, toml: Self.oidcTOML("\(base)/error-echo"), env: ["AUTHDECK_PASSWORD": "hostile-pw-4242"], home: home)
        }
        expectNothingLost("error-echo \(grant)", result, after)
        #expect(count == 1)
        let events = try BinaryRunner.authdeck(home: home).run(["events", "--json"])
        for text in [result.stderr, result.stdout, events.stdout, after?.account.lastError?.code ?? "", after?.account.lastError?.remedy ?? ""] {
            #expect(!text.contains(secret), "error-echo \(grant): the secret in \(text.prefix(300))")
        }
        #expect(Self.storeBytes(home).range(of: Data(secret.utf8)) == nil, "error-echo \(grant): the secret in clear in the store")
        if grant == "refresh" { #expect(after?.account.lastError?.code == "redacted_error", "\(String(describing: after?.account.lastError))") }
        #expect(result.stderr.contains("redacted_error"), "\(result.stderr)")
    }

    /// `error` holding an OSC title, a bell and ESC[2J, or 900 KB: the message has no control
    /// byte, and the code kept on the account and in the audit trail is authdeck's short word.
    @Test(arguments: ["error-escape", "error-huge"])
    func anErrorCodeOutsideRFC6749IsReplacedNotPrintedOrStored(mode: String) throws {
        let (server, base) = try Self.server()
        let home = TempDirectory("authdeck-hostile-code")
        let (result, after, _) = try withExtendedLifetime(server) {
            try run(["refresh", "h/0000beef"], toml: Self.oidcTOML("\(base)/\(mode)"), home: home)
        }
        expectNothingLost(mode, result, after)
        #expect(!Self.drivesTheTerminal(result.stderr), "\(mode): \(result.stderr.debugDescription)")
        #expect(result.stderr.utf8.count < 2_000, "\(mode): \(result.stderr.utf8.count) bytes of message")
        #expect(after?.account.lastError?.code == "malformed_error", "\(mode): \(String(describing: after?.account.lastError?.code.prefix(80)))")
        let bytes = Self.storeBytes(home)
        #expect(bytes.range(of: Data("]0;pwned".utf8)) == nil && bytes.range(of: Data(String(repeating: "x", count: 1000).utf8)) == nil,
                "\(mode): the server's error in the store")
    }

    /// A device-code answer whose user_code or verification URI would drive the terminal, or
    /// whose verification_uri_complete is `javascript:`: refused with an error naming the field
    /// before anything is shown or polled.
    @Test(arguments: [("device-code-osc", "user_code"), ("device-uri-osc", "verification_uri"), ("device-js", "verification_uri_complete")])
    func aDeviceCodeUnfitToShowIsRefusedNamingTheField(mode: String, field: String) throws {
        let (server, base) = try Self.server()
        let (result, after, count) = try withExtendedLifetime(server) {
            try run(["login", "h", "--device"], toml: Self.oidcTOML("\(base)/\(mode)"), timeout: 60)
        }
        expectNothingLost(mode, result, after)
        #expect(count == 1)
        #expect(!Self.drivesTheTerminal(result.stderr), "\(mode): \(result.stderr.debugDescription)")
        #expect(Self.verdict(result.stderr).contains(field + " "), "\(mode): \(result.stderr)")
        #expect(!result.stderr.contains("Waiting"), "\(mode): nothing is shown: \(result.stderr)")
    }

    /// Discovery's authorization_endpoint as `file:`, `javascript:`, `ssh:`, an `--option` or
    /// plain http to another host: the browser is never started, and the error names the field.
    @Test(arguments: ["authz-file", "authz-js", "authz-ssh", "authz-option", "authz-http"])
    func anAuthorizationEndpointThatIsNotHTTPSNeverReachesTheBrowser(mode: String) throws {
        let (server, base) = try Self.server()
        let dir = TempDirectory("authdeck-hostile-authz")
        let browser = dir.file("browser.sh"), argv = dir.file("argv")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(argv)'\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        let (result, after, count) = try withExtendedLifetime(server) {
            try run(["login", "h", "--browser"], toml: Self.oidcTOML("\(base)/\(mode)"), env: ["BROWSER": browser], timeout: 30)
        }
        expectNothingLost(mode, result, after)
        #expect(count == 1)
        #expect(!FileManager.default.fileExists(atPath: argv), "\(mode): the browser was started with \((try? String(contentsOfFile: argv, encoding: .utf8)) ?? "")")
        #expect(Self.verdict(result.stderr).contains("authorization_endpoint"), "\(mode): \(result.stderr)")
    }

    /// `login --browser` starts the browser as `exec` starts its command: without
    /// AUTHDECK_PASSWORD and without the provider's `client_secret_env` variable.
    @Test func theBrowserGetsNoSecretFromAuthdecksEnvironment() throws {
        let (server, base) = try Self.server()
        let dir = TempDirectory("authdeck-hostile-env")
        let browser = dir.file("browser.sh"), seen = dir.file("env")
        try "#!/bin/sh\nenv > '\(seen)'\nexec curl -s -L -o /dev/null \"$1\"\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        let (result, after, _) = try withExtendedLifetime(server) {
            // A wrong state is ignored until --timeout (the browser has run by then).
            try run(["login", "h", "--browser", "--timeout", "5s"], toml: Self.oidcTOML("\(base)/state-wrong"),
                    env: ["BROWSER": browser, "AUTHDECK_PASSWORD": "pw-for-the-browser-9"], timeout: 60)
        }
        expectNothingLost("browser environment", result, after)
        let env = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(env.contains("PATH="), "the browser ran with an environment: \(env)")
        for secret in ["AUTHDECK_PASSWORD", "pw-for-the-browser-9", "HOSTILE_SECRET", "hostile-secret"] {
            #expect(!env.contains(secret), "\(secret) reached the browser")
        }
    }
}
