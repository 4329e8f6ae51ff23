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
             timeout: TimeInterval = 90) throws -> (BinaryRunner.Result, StoredAccount?, Int) {
        let home = TempDirectory("authdeck-hostile")
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
        #expect(result.stderr.contains("no sign-in redirect arrived within 5 s; 1 redirect with the wrong state (not from this sign-in) was ignored"),
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
}
