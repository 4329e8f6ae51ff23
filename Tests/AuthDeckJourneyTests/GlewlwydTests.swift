import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
#if canImport(Glibc)
import Glibc
import AuthDeckPlatform
#endif

/// The real `authdeck` binary against glewlwyd, a real OAuth 2.0 / OIDC server from Debian,
/// on random loopback ports. Skipped (loudly) only where glewlwyd is not installed; CI
/// installs it through scripts/deps.
@Suite(.serialized, .enabled(if: GlewlwydServer.installed,
                             "SKIPPED: glewlwyd is not installed (apt-get install glewlwyd) — the OAuth proof did not run"))
struct GlewlwydTests {
    let server: GlewlwydServer
    let home = TempDirectory("authdeck-gl")
    let runner: BinaryRunner
    var environment: [String: String] { runner.environment }

    init() throws {
        server = try GlewlwydServer()
        runner = BinaryRunner.authdeck(home: home, ["GL_SECRET": GlewlwydServer.clientSecret])
        try home.writeConfig(server.providerTOML())
    }

    func run(_ args: String..., env: [String: String] = [:]) throws -> BinaryRunner.Result {
        try runner.run(args, env: env)
    }

    func passwordLogin() throws -> BinaryRunner.Result {
        try run("login", "gl", "--password", "--username", GlewlwydServer.user, env: ["AUTHDECK_PASSWORD": GlewlwydServer.password])
    }

    func store() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: environment), clock: SystemClock())
    }

    func accounts() throws -> [[String: Any]] {
        let r = try run("accounts", "--json")
        return try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    }

    @Test func deviceFlowSignsInAndTheAccountIsListed() throws {
        let login = try LiveProcess(runner.executable, ["login", "gl", "--device"], environment: environment)
        let code = try login.waitFor("the user code") { text -> String? in
            guard let r = text.range(of: "enter the code ") else { return nil }
            let rest = text[r.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            return rest.count >= 8 ? String(rest) : nil
        }
        #expect(login.stderr.contains("\(server.issuer)/device"))
        // A person takes a while: glewlwyd's interval is 1 s, so over 2.5 s the client polls
        // twice and is told `authorization_pending` both times, and must still be waiting.
        try login.keepsRunning(for: 2.5, "the user approved the code")
        try server.approveDevice(userCode: code)
        #expect(try login.wait(timeout: 60) == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Signed in as taro"))
        let rows = try accounts()
        #expect(rows.count == 1)
        #expect(rows.first?["username"] as? String == "taro")
        #expect(rows.first?["display_name"] as? String == "本番 太郎")
        #expect(rows.first?["state"] as? String == "signed_in")
        #expect((rows.first?["subject"] as? String)?.hasPrefix(server.issuer + "|") == true)
        // A real server's ID token: its NumericDate claims are numbers in --json, as in the token.
        let claims = try #require(rows.first?["id_token_claims"] as? [String: Any])
        #expect(claims["exp"] is Int && claims["iat"] is Int, "\(claims)")
        #expect(claims["sub"] is String)
    }

    @Test func authorizationCodeWithPKCEThroughTheLoopback() throws {
        let browser = try server.browserScript()
        let r = try run("login", "gl", "--browser", env: ["BROWSER": browser])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("code_challenge_method=S256"))
        let log = try String(contentsOfFile: server.dir.file("browser.log"), encoding: .utf8)
        #expect(log.contains("200 http://127.0.0.1:\(server.redirectPort)/callback?"), "\(log)")
        // The same person signing in another way updates the account instead of duplicating it.
        #expect(try passwordLogin().status == 0)
        let rows = try accounts()
        #expect(rows.count == 1)
        #expect(rows.first?["username"] as? String == "taro")
    }

    @Test func expiredTokenRenewsAndTheRotatedRefreshTokenIsStoredFirst() throws {
        // A second server whose access tokens live 3 s, and no clock-skew margin.
        let shortLived = try GlewlwydServer(accessTokenSeconds: 3)
        try home.writeConfig("clock_skew = \"0s\"\n" + shortLived.providerTOML())
        #expect(try passwordLogin().status == 0)
        try waitUntil("the access token expires") { try accounts().first?["state"] as? String == "expired" }
        let before = try #require(try store().accounts(includeQuarantined: false).first)
        let oldRefresh = try #require(before.credentials.refreshToken)
        let first = try run("token", "taro")
        #expect(first.status == 0, "\(first.stderr)")
        let after = try #require(try store().account(id: before.account.id))
        let newRefresh = try #require(after.credentials.refreshToken)
        #expect(newRefresh.generation == oldRefresh.generation + 1)
        #expect(newRefresh.value != oldRefresh.value)
        #expect(first.stdout.trimmingCharacters(in: .newlines) != before.credentials.accessTokens[0].value.exposedValue)
        // The server really spends refresh tokens once: the old one is now refused.
        #expect(try !shortLived.isActive(oldRefresh.value.exposedValue))
        try waitUntil("the renewed token expires") { try accounts().first?["state"] as? String == "expired" }
        let second = try run("token", "taro")
        #expect(second.status == 0)
        #expect(try store().account(id: before.account.id)?.credentials.refreshToken?.generation == oldRefresh.generation + 2)
        let events = try run("events", "--account", before.account.id)
        #expect(events.stdout.contains("refresh token rotated"))
    }

    @Test func requestToTheUserinfoEndpointWithAnExpiredTokenRenewsIt() throws {
        let shortLived = try GlewlwydServer(accessTokenSeconds: 3)
        try home.writeConfig("clock_skew = \"0s\"\n" + shortLived.providerTOML())
        #expect(try passwordLogin().status == 0)
        try waitUntil("the access token expires") { try accounts().first?["state"] as? String == "expired" }
        let before = try #require(try store().accounts(includeQuarantined: false).first?.credentials.refreshToken?.generation)
        let r = try run("request", "taro", "\(shortLived.issuer)/userinfo", "--include")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("HTTP 200"))
        let claims = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        #expect(claims["sub"] != nil)
        #expect(try store().accounts(includeQuarantined: false).first?.credentials.refreshToken?.generation == before + 1,
                "renewed (and the rotated refresh token stored) before the request went out")
    }

    @Test func refreshAllRenewsEveryExpiredAccountConcurrently() throws {
        let shortLived = try GlewlwydServer(accessTokenSeconds: 3)
        try home.writeConfig("clock_skew = \"0s\"\nexpiring_soon = \"0s\"\n" + shortLived.providerTOML())
        #expect(try passwordLogin().status == 0)
        #expect(try run("login", "gl", "--client").status == 0)
        try waitUntil("both tokens expire") { try accounts().allSatisfy { $0["state"] as? String == "expired" } }
        let r = try run("refresh", "--all", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let results = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(results.count == 2 && results.allSatisfy { $0["ok"] as? Bool == true })
        #expect(try accounts().allSatisfy { $0["state"] as? String == "signed_in" })
    }

    @Test func clientCredentialsSignInAndRenew() throws {
        let r = try run("login", "gl", "--client")
        #expect(r.status == 0, "\(r.stderr)")
        let token = try run("token", "authdeck")
        #expect(token.status == 0 && token.stdout.count > 20)
        let renewed = try run("refresh", "authdeck")
        #expect(renewed.status == 0, "\(renewed.stderr)")
        #expect(try run("token", "authdeck").stdout != token.stdout)
    }

    @Test func logoutRevokesAtTheServerThenDeletes() throws {
        #expect(try passwordLogin().status == 0)
        let stored = try #require(try store().accounts(includeQuarantined: false).first)
        let refresh = try #require(stored.credentials.refreshToken).value.exposedValue
        #expect(try server.isActive(refresh))
        let out = try run("logout", "taro", "--json")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("\"revoked_at_server\" : true"))
        #expect(try !server.isActive(refresh))
        #expect(try accounts().isEmpty)
    }

    @Test func discoveryIsCachedAndAnotherIssuerIsRefused() throws {
        #expect(try passwordLogin().status == 0)
        let url = server.issuer + "/.well-known/openid-configuration"
        #expect(try store().cachedDocument(url: url) != nil)
        // A config whose issuer differs from what the server says it is (trailing slash).
        try home.writeConfig(server.providerTOML(id: "gl", endpoints: "{ issuer = \"\(server.issuer)/\" }"))
        let r = try passwordLogin()
        #expect(r.status == 1)
        #expect(r.stderr.contains("names another issuer"), "\(r.stderr)")
    }

    func withTamperProxy(_ mode: String, _ body: () throws -> Void) throws {
        let port = FreePort.pick()
        let harness = URL(fileURLWithPath: GlewlwydServer.harness).deletingLastPathComponent().appendingPathComponent("tamper-proxy").path
        let proxy = try LiveProcess(harness, [String(port), "http://127.0.0.1:\(server.port)", mode], environment: ["PATH": "/usr/bin:/bin"])
        _ = try proxy.waitFor("the proxy") { $0.contains("ready") ? true : nil }
        try home.writeConfig(server.providerTOML(endpoints: "{ issuer = \"\(server.issuer)\", token = \"http://127.0.0.1:\(port)/api/oidc/token\" }"))
        try body()
    }

    @Test func aTamperedIDTokenIsRejectedAndNothingIsSaved() throws {
        try withTamperProxy("payload") {
            let r = try passwordLogin()
            #expect(r.status == 1)
            #expect(r.stderr.contains("the id_token was rejected: the RS256 signature does not verify"), "\(r.stderr)")
            #expect(try accounts().isEmpty)
        }
    }

    @Test func anUnsignedIDTokenIsRejected() throws {
        try withTamperProxy("alg-none") {
            let r = try passwordLogin()
            #expect(r.status == 1)
            #expect(r.stderr.contains("it is unsigned"), "\(r.stderr)")
            #expect(try accounts().isEmpty)
        }
    }

    @Test func aDeadServerNeverDowngradesTheAccount() throws {
        try home.writeConfig("clock_skew = \"2h\"\n" + server.providerTOML())
        #expect(try passwordLogin().status == 0)
        let before = try #require(try store().accounts(includeQuarantined: false).first)
        kill(server.pid, SIGKILL)
        for _ in 0..<100 where kill(server.pid, 0) == 0 { usleep(20_000) }
        let r = try run("token", "taro")
        #expect(r.status == 4, "\(r.stderr)")
        #expect(r.stderr.contains("nothing was changed"))
        let after = try #require(try store().account(id: before.account.id))
        #expect(after.credentials == before.credentials)
        #expect(after.account.lastError == nil)
        // Still inside the 2 h margin, not expired: renew due, as before the dead server.
        #expect(try accounts().first?["state"] as? String == "renew_due")
    }

    /// A flow the provider does not offer is usage (2), as for every provider kind (issue 39).
    @Test func thePasswordGrantNeedsToBeEnabled() throws {
        try home.writeConfig(server.providerTOML().replacingOccurrences(of: ", allow_password = true", with: ""))
        let r = try passwordLogin()
        #expect(r.status == 2)
        #expect(r.stderr.contains("does not allow the password grant"))
    }

    /// Two `authdeck refresh` processes started together, 50 rounds, against one-use refresh
    /// tokens: without single-flight one of each pair would spend an already-spent token.
    @Test func rotationRaceLosesNoRefresh() throws {
        #expect(try passwordLogin().status == 0)
        let id = try #require(try store().accounts(includeQuarantined: false).first).account.id
        let start = try #require(try store().account(id: id)?.credentials.refreshToken?.generation)
        let rounds = 50
        var rejected = 0
        for _ in 0..<rounds {
            let a = try LiveProcess(runner.executable, ["refresh", id, "--force"], environment: environment)
            let b = try LiveProcess(runner.executable, ["refresh", id, "--force"], environment: environment)
            for p in [a, b] where try p.wait(timeout: 60) != 0 {
                rejected += 1
                Issue.record("a refresh failed: \(p.stderr)")
            }
        }
        print("rotation race: \(rejected) rejected refreshes in \(rounds)")
        #expect(rejected == 0)
        #expect(try store().account(id: id)?.credentials.refreshToken?.generation == start + 2 * rounds)
        #expect(try run("token", id).status == 0)
    }
}
