import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// OAM mobile client registration (issue 29): the real binary against the emulator, which
/// checks the registration steps on its own (PROVIDERS.md §5) and reports what it received.
@Suite(.serialized) struct OAMRegistrationTests {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-oamreg")
    let runner: BinaryRunner
    static let user = "taro@contoso.com", password = "taro-pass-123"
    static let preAuthz = "oracle-idm:/oauth/assertion-type/client-identity/mobile-client-pre-authz-code-client"
    static let clientAssertion = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    init() throws {
        idp = try EmulatorProcess()
        // No client secret anywhere: a mobile client is not confidential.
        runner = BinaryRunner.authdeck(home: home, [:])
        try configure()
    }

    /// A mobile-client provider "mob" (no client secret); `options` continues its options table.
    func configure(_ options: String = "") throws {
        try home.writeConfig("""
            [[provider]]
            id = "mob"
            kind = "oam"
            client_id = "oam-client"
            scopes = ["UserProfile.me"]
            endpoints = { base = "\(idp.url)" }
            options = { preset = "11g-ms", identity_domain = "DefaultDomain", client_registration = true\(options) }

            """)
    }

    func run(_ args: String..., env: [String: String] = [:]) throws -> BinaryRunner.Result {
        try runner.run(args, env: env)
    }

    func login(_ extra: String...) throws -> BinaryRunner.Result {
        try runner.run(["login", "mob", "--password", "--username", Self.user] + extra, env: ["AUTHDECK_PASSWORD": Self.password])
    }

    func store() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
    }

    func account() throws -> StoredAccount? {
        try store().accounts(includeQuarantined: true).first { $0.account.providerId == "mob" }
    }

    /// What the emulator received and issued: `steps` and `assertions`.
    func registrations() throws -> (steps: [[String: String]], assertions: [[String: Any]]) {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(idp.admin("oam/registrations").utf8)) as? [String: Any])
        return (json["steps"] as? [[String: String]] ?? [], json["assertions"] as? [[String: Any]] ?? [])
    }

    func state() throws -> [String: Any]? {
        let rows = try JSONSerialization.jsonObject(with: Data(try run("accounts", "--json").stdout.utf8)) as? [[String: Any]]
        return rows?.first { $0["provider"] as? String == "mob" }
    }

    @Test func theFirstSignInRegistersAndLaterOnesReuseTheRegistration() throws {
        let first = try login()
        #expect(first.status == 0, "\(first.stderr)")
        // The two steps as PROVIDERS.md lists them, as the emulator received them.
        let (steps, assertions) = try registrations()
        try #require(steps.count == 2, "\(steps)")
        #expect(steps[0]["grant_type"] == "client_credentials" && steps[0]["oracle_requested_assertions"] == Self.preAuthz, "\(steps[0])")
        let device = try #require(steps[0]["device_id"])
        #expect(!device.isEmpty, "oracle_device_profile is base64 JSON naming the device")
        #expect(steps[1]["grant_type"] == "password" && steps[1]["oracle_requested_assertions"] == Self.clientAssertion
                && steps[1]["oracle_pre_authz_code"] == "present" && steps[1]["username"] == Self.user, "\(steps[1])")
        #expect(steps[1]["device_id"] == device)
        try #require(assertions.count == 1)
        #expect(assertions[0]["user"] as? String == Self.user && assertions[0]["uses"] as? Int == 1, "the token request used it: \(assertions)")
        // The handle is sealed in the store with the account, with the response's extras.
        let extras = try #require(try account()).credentials.extras
        let assertion = try #require(extras["oam.registration.assertion"]).exposedValue
        #expect(extras["oam.registration.oracle_tk_context"]?.exposedValue == "client_assertion")
        #expect(extras["oam.registration.oracle_token_in_server_device_store"]?.exposedValue == "true")
        #expect(extras["oam.registration.device"]?.exposedValue == device)
        // …and never in clear in the database, its WAL or the config.
        for file in ["data/authdeck/authdeck.db", "data/authdeck/authdeck.db-wal", "config/authdeck/config.toml"] {
            let bytes = FileManager.default.contents(atPath: home.file(file)) ?? Data()
            #expect(bytes.range(of: Data(assertion.utf8)) == nil, "\(file) holds the client assertion in clear")
        }
        // A second sign-in and a renewal reuse it: no new registration step, one assertion, more uses.
        #expect(try login().status == 0)
        let renewed = try run("refresh", "mob")
        #expect(renewed.status == 0, "\(renewed.stderr)")
        let (stepsAfter, assertionsAfter) = try registrations()
        #expect(stepsAfter.count == 2 && assertionsAfter.count == 1, "\(stepsAfter)")
        #expect(assertionsAfter.first?["uses"] as? Int == 3, "\(assertionsAfter)")
        #expect(try #require(try account()).credentials.extras["oam.registration.assertion"]?.exposedValue == assertion)
    }

    @Test func anExpiredClientAssertionIsRenewedOnceWithTheRememberedCredentials() throws {
        try configure(", remember_credentials_allowed = true, remember_credentials_default = true")
        #expect(try login().status == 0)
        let before = try #require(try account()).credentials.extras["oam.registration.assertion"]
        #expect(try idp.admin("oam/client-assertions", #"{"action":"expire"}"#).contains("\"changed\":1"))
        let r = try run("refresh", "mob")
        #expect(r.status == 0, "\(r.stderr)")
        let (steps, assertions) = try registrations()
        #expect(steps.count == 4, "registered again exactly once: \(steps)")
        #expect(steps[2]["device_id"] == steps[0]["device_id"], "the same device registers again")
        #expect(assertions.count == 2 && assertions.filter { $0["expired"] as? Bool == false }.count == 1, "\(assertions)")
        let after = try #require(try account())
        #expect(after.credentials.extras["oam.registration.assertion"] != before, "the new assertion is stored")
        #expect(after.account.lastError == nil)
        #expect(try state()?["state"] as? String == "signed_in")
        // The renewed registration works for the next renewal without registering again.
        #expect(try run("refresh", "mob").status == 0)
        #expect(try registrations().steps.count == 4)
    }

    @Test func aRevokedClientAssertionWithoutARememberedPasswordNeedsASignInThatSaysWhy() throws {
        try configure(", remember_username_allowed = true, remember_username_default = true")
        #expect(try login().status == 0)
        #expect(try idp.admin("oam/client-assertions", #"{"action":"revoke","username":"taro@contoso.com"}"#).contains("\"changed\":1"))
        let r = try run("refresh", "mob")
        #expect(r.status == 3, "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("the OAM server refused its client registration (invalid_client: the client assertion expired or was revoked), "
                                  + "and registering again needs the password, which is not remembered; sign in again: `authdeck login mob`"), "\(r.stderr)")
        #expect(try registrations().steps.count == 2, "no registration without credentials")
        // Marked: the access token still answers until it lapses, then the account needs a sign-in.
        let marked = try #require(try account()?.account.lastError)
        #expect(marked.errorClass == .needsInteraction && marked.code == "registration_refused", "\(marked)")
        // A sign-in with the password registers again.
        let again = try login()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try registrations().steps.count == 4)
        #expect(try account()?.account.lastError == nil)
    }

    @Test func aNetworkFailureDuringRenewalChangesNothing() throws {
        try configure(", remember_credentials_allowed = true, remember_credentials_default = true")
        #expect(try login().status == 0)
        let before = try #require(try account())
        try idp.admin("fail", #"{"count":1,"status":503,"path":"/oauthservice/tokens"}"#)
        let r = try run("refresh", "mob")
        #expect(r.status == 4, "\(r.stderr)")
        let after = try #require(try account())
        #expect(after.credentials.extras == before.credentials.extras && after.account.lastError == nil)
        #expect(try registrations().steps.count == 2)
    }

    @Test func logoutKeepsTheRegistrationAndClearRegistrationDeletesIt() throws {
        try configure(", remember_username_allowed = true, remember_username_default = true")
        #expect(try login().status == 0)
        let plain = try run("logout", Self.user)
        #expect(plain.status == 0, "\(plain.stderr)")
        let kept = try #require(try account())
        #expect(kept.credentials.accessTokens.isEmpty && kept.credentials.refreshToken == nil)
        #expect(kept.credentials.extras["oam.registration.assertion"] != nil, "a plain logout keeps the registration")
        #expect(try state()?["state"] as? String == "needs_sign_in")
        // Signing in again reuses the kept registration.
        #expect(try login().status == 0)
        #expect(try registrations().steps.count == 2)
        let cleared = try run("logout", Self.user, "--clear-registration")
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(try account() == nil, "the registration went with the username and preferences")
        // The emulator lists assertions oldest first.
        let usesAtClear = try #require(try registrations().assertions.first?["uses"] as? Int)
        // The next sign-in registers anew, and the cleared assertion is never sent again.
        #expect(try login().status == 0)
        #expect(try run("refresh", "mob").status == 0)
        let (steps, assertions) = try registrations()
        #expect(steps.count == 4 && assertions.count == 2, "\(steps)")
        #expect(assertions.first?["uses"] as? Int == usesAtClear, "the cleared assertion was used again: \(assertions)")
        #expect(assertions.last?["uses"] as? Int == 2, "\(assertions)")
    }

    @Test func clientCredentialsRegisterWithTheUsersPasswordOnceThenUseTheAssertion() throws {
        let refused = try run("login", "mob", "--client")
        #expect(refused.status == 2 && refused.stderr.contains("--client needs --username"), "\(refused.stderr)")
        let first = try run("login", "mob", "--client", "--username", Self.user, env: ["AUTHDECK_PASSWORD": Self.password])
        #expect(first.status == 0, "\(first.stderr)")
        let (steps, assertions) = try registrations()
        #expect(steps.count == 2 && steps[1]["grant_type"] == "password" && steps[1]["username"] == Self.user, "\(steps)")
        // Renewed with the client assertion, asking for nothing.
        #expect(try run("refresh", "oam-client").status == 0)
        let again = try run("login", "mob", "--client")
        #expect(again.status == 0, "no password asked once registered: \(again.stderr)")
        #expect(try registrations().steps.count == 2)
        #expect(try registrations().assertions.first?["uses"] as? Int == 3, "\(assertions)")
    }

    @Test func aBrowserSignInRegistersThreeLeggedThenReusesTheRegistration() throws {
        let script = home.file("oam-browser.sh")
        try """
        #!/bin/sh
        q="${1#*\\?}"; base="${1%%\\?*}"
        exec curl -sS -L -o /dev/null -w '%{http_code} %{url_effective}\\n' --data "$q&username=taro%40contoso.com&password=\(Self.password)" "$base" >> '\(home.file("oam-browser.log"))' 2>&1
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let r = try run("login", "mob", "--browser", env: ["BROWSER": script])
        #expect(r.status == 0, "\(r.stderr)")
        let (steps, assertions) = try registrations()
        try #require(steps.count == 2, "\(steps)")
        #expect(steps[0]["grant_type"] == "client_credentials" && steps[0]["oracle_requested_assertions"] == Self.preAuthz)
        #expect(steps[1]["grant_type"] == "authorization_code" && steps[1]["oracle_requested_assertions"] == Self.clientAssertion
                && steps[1]["oracle_pre_authz_code"] == "present", "\(steps[1])")
        #expect(assertions.count == 1 && assertions[0]["user"] as? String == Self.user && assertions[0]["uses"] as? Int == 1, "\(assertions)")
        #expect(try account()?.account.username == Self.user)
        // Signing in through the browser again: one round with the held assertion.
        let again = try run("login", "mob", "--browser", env: ["BROWSER": script])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try registrations().steps.count == 2)
        #expect(try registrations().assertions.first?["uses"] as? Int == 2)
    }
}
