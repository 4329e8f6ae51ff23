import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Facebook Graph through the real binary and the emulator.
@Suite(.serialized) struct FacebookTests {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-fb")
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home, ["FB_SECRET": "fb-app-secret"])
        try home.writeConfig("""
            [[provider]]
            id = "fb"
            kind = "facebook"
            client_id = "1234567890"
            scopes = ["public_profile", "email"]
            endpoints = { graph = "\(idp.url)", www = "\(idp.url)" }
            options = { client_token = "fb-client-token" }

            [[provider]]
            id = "fbs"
            kind = "facebook"
            client_id = "1234567890"
            client_secret_env = "FB_SECRET"
            endpoints = { graph = "\(idp.url)", www = "\(idp.url)" }
            options = { client_token = "fb-client-token" }
            """)
    }

    func run(_ args: String...) throws -> BinaryRunner.Result { try runner.run(args) }

    func accounts() throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(try run("accounts", "--json").stdout.utf8)) as? [[String: Any]])
    }

    /// Starts `login PROVIDER --device` and returns it with the user code it printed.
    func startDeviceLogin(_ provider: String) throws -> (LiveProcess, String) {
        let login = try LiveProcess(runner.executable, ["login", provider, "--device"], environment: runner.environment)
        let code = try login.waitFor("the user code") { text -> String? in
            guard let r = text.range(of: "enter the code ") else { return nil }
            let c = text[r.upperBound...].prefix { $0.isLetter || $0.isNumber }
            return c.count == 8 ? String(c) : nil
        }
        return (login, code)
    }

    func signIn(_ provider: String) throws {
        let (login, code) = try startDeviceLogin(provider)
        try idp.approve(userCode: code, as: "taro@contoso.com")
        #expect(try login.wait() == 0, "\(login.stderr)")
    }

    /// Issue 31, item 8: the emulated Facebook device window showed `…/device`, which answered
    /// 404; the code is entered at the emulator's sign-in page. The page shown must answer.
    @Test func theDeviceWindowsAddressIsAPageThatAnswers() throws {
        let (login, code) = try startDeviceLogin("fb")
        let uri = try login.waitFor("the address") { text -> String? in
            guard let r = text.range(of: "open ") else { return nil }
            return String(text[r.upperBound...].prefix { !$0.isWhitespace })
        }
        let status = try EmulatorProcess.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", uri])
        #expect(status == "200", "\(uri) answered \(status)")
        try idp.approve(userCode: code, as: "taro@contoso.com")
        #expect(try login.wait() == 0, "\(login.stderr)")
    }

    @Test func deviceLoginSurvivesAnExpiredCodeAndASlowDown() throws {
        // A code that expires before anyone enters it: without a terminal to ask "get a new
        // code?", the sign-in stops with the remedy.
        try idp.admin("facebook/lifetimes", #"{"code":2}"#)
        let (expired, _) = try startDeviceLogin("fb")
        #expect(try expired.wait() == 3)
        #expect(expired.stderr.contains("the device code expired before it was entered; run the sign-in again"), "\(expired.stderr)")
        // Then one "polling too fast" (code 17 / 1349172): the interval grows by 5 s and the
        // sign-in still completes.
        try idp.admin("facebook/lifetimes", #"{"code":420}"#)
        try idp.admin("fail", #"{"count":1,"fb_code":17,"fb_subcode":1349172,"path":"device/login_status"}"#)
        let started = Date()
        let (login, code) = try startDeviceLogin("fb")
        try idp.approve(userCode: code, as: "taro@contoso.com")
        #expect(try login.wait(timeout: 60) == 0, "\(login.stderr)")
        #expect(Date().timeIntervalSince(started) >= 6, "the poll after slow_down waited interval + 5 s")
        let row = try #require(try accounts().first)
        #expect(row["username"] as? String == "taro@contoso.com")
        #expect(row["display_name"] as? String == "本番 太郎")
    }

    @Test func debugTokenExpiryIsShownAndTheSecretBuysALongLivedToken() throws {
        try signIn("fb")
        try signIn("fbs")
        let rows = try accounts()
        let short = try #require(rows.first { $0["provider"] as? String == "fb" })
        let long = try #require(rows.first { $0["provider"] as? String == "fbs" })
        // Short-lived device token: about two hours; exchanged with the secret: about 60 days.
        #expect((7000...7200).contains(short["expires_in_seconds"] as? Int ?? 0), "\(short)")
        #expect((5_180_000...5_183_944).contains(long["expires_in_seconds"] as? Int ?? 0), "\(long)")
        #expect((short["access_tokens"] as? [[String: Any]])?.first?["scopes"] as? [String] == ["email", "public_profile"])
        #expect((short["id_token_claims"] as? [String: Any])?["data_access_expires_at"] is String)
    }

    @Test func anExpiredSessionNeedsSignInAndNoSecretMeansNoSilentRenewal() throws {
        try signIn("fbs")
        try idp.admin("fail", #"{"count":1,"fb_code":190,"fb_subcode":463,"path":"oauth/access_token"}"#)
        let r = try run("refresh", "fbs")
        #expect(r.status == 3)
        #expect(r.stderr.contains("the Facebook session expired — sign in again [fb 190/463]"), "\(r.stderr)")
        #expect((try accounts().first?["last_error"] as? [String: Any])?["code"] as? String == "fb 190/463")
        try signIn("fb")
        let noSecret = try run("refresh", "fb")
        #expect(noSecret.status == 3)
        #expect(noSecret.stderr.contains("Facebook tokens cannot be renewed silently without an app secret"))
        let providers = try run("providers")
        #expect(providers.stdout.contains("Facebook tokens cannot be renewed silently without an app secret"))
    }

    /// Issue 31, item 4: `refresh --all` exited 0 in silence over an expired Facebook account
    /// that cannot renew (no app secret); the man page says it exits 3 then. It names it too.
    @Test func refreshAllNamesAnExpiredAccountThatCannotRenewAndExits3() throws {
        try idp.admin("facebook/lifetimes", #"{"short":2}"#)
        try signIn("fb")
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, try accounts().first?["state"] as? String != "expired" { usleep(200_000) }
        let all = try run("refresh", "--all")
        #expect(all.status == 3, "\(all.stdout) \(all.stderr)")
        #expect(all.stderr.contains("expired and cannot renew without a person: `authdeck login fb`"), "\(all.stderr)")
    }

    @Test func logoutRevokesThePermissions() throws {
        try signIn("fb")
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        let token = try #require(try store.accounts(includeQuarantined: false).first?.credentials.accessTokens.first).value.exposedValue
        let out = try run("logout", "taro@contoso.com", "--json")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("\"revoked_at_server\" : true"))
        let me = try EmulatorProcess.curl(["-s", "\(idp.url)/v19.0/me?access_token=\(token)"])
        #expect(me.contains("\"error_subcode\":458"), "\(me)")
    }
}
