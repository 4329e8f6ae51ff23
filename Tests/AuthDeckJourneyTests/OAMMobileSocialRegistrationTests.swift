import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Mobile client registration on the Mobile and Social REST server type (issue 41): the real
/// binary against the emulator, which checks the registration and the handle on every call on
/// its own (PROVIDERS.md §5) and reports what arrived.
@Suite(.serialized) struct OAMMobileSocialRegistrationTests {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-oamms-reg")
    let runner: BinaryRunner
    static let user = "taro@contoso.com", password = "taro-pass-123"
    static let mobile = "/oic_rest/rest/mobileoamauthentication/"

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home, [:])
        try configure()
    }

    /// Provider "ms": Mobile and Social REST, a registered client; `options` continues its options table.
    func configure(_ options: String = "") throws {
        try home.writeConfig("""
            [[provider]]
            id = "ms"
            kind = "oam"
            endpoints = { base = "\(idp.url)" }
            options = { server_type = "mobile-social", service_domain = "MobileServiceDomain", application_name = "WhitePages", client_registration = true\(options) }

            """)
    }

    func run(_ args: String..., password: String? = nil) throws -> BinaryRunner.Result {
        try runner.run(args, env: password.map { ["AUTHDECK_PASSWORD": $0] } ?? [:])
    }

    func login(_ user: String = Self.user, password: String = Self.password) throws -> BinaryRunner.Result {
        try runner.run(["login", "ms", "--password", "--username", user], env: ["AUTHDECK_PASSWORD": password])
    }

    func store() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
    }

    func account(_ user: String = Self.user) throws -> StoredAccount? {
        try store().accounts(includeQuarantined: true).first { $0.account.providerId == "ms" && $0.account.username == user }
    }

    func handle(_ user: String = Self.user) throws -> String? {
        try account(user)?.credentials.extras["oam.registration.assertion"]?.exposedValue
    }

    /// The REST calls the emulator received (non-secret fields; `registration` says what the handle was).
    func calls(_ operation: String? = nil) throws -> [[String: String]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(idp.admin("oam/rest").utf8)) as? [String: Any])
        let all = json["calls"] as? [[String: String]] ?? []
        return operation.map { op in all.filter { $0["operation"] == op } } ?? all
    }

    /// The handles the emulator issued: application, user, device profile, revoked, deleted, uses.
    func registrations() throws -> [[String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(idp.admin("oam/rest/registrations").utf8)) as? [String: Any])
        return json["registrations"] as? [[String: Any]] ?? []
    }

    /// Every place a secret could leak to besides the network: the store's files and the events.
    func expectNowhereInClear(_ secret: String, _ outputs: [BinaryRunner.Result]) throws {
        for file in ["data/authdeck/authdeck.db", "data/authdeck/authdeck.db-wal", "config/authdeck/config.toml"] {
            let bytes = FileManager.default.contents(atPath: home.file(file)) ?? Data()
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file) holds the handle in clear")
        }
        let events = try run("events", "--json")
        #expect(events.status == 0 && !events.stdout.isEmpty)
        for r in outputs + [events] {
            #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret), "printed: \(r.stdout) \(r.stderr)")
        }
    }

    @Test func theFirstSignInRegistersOncePerUserAndEveryLaterCallCarriesTheHandle() throws {
        let first = try login()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("Registered this device with the Mobile and Social server."), "\(first.stderr)")
        // Register, then authenticate with the new handle, both at the mobile service.
        let sent = try calls()
        try #require(sent.count == 2, "\(sent)")
        #expect(sent[0]["path"] == Self.mobile + "register" && sent[0]["x-idaas-rest-new-token-type-to-create"] == "CLIENTREGHANDLE", "\(sent[0])")
        #expect(sent[0]["x-idaas-rest-subject-username"] == Self.user && sent[0]["x-idaas-rest-subject-password"] == "present")
        #expect(sent[0]["clientid"] == "WhitePages" && sent[0]["registration"] == nil, "registering sends no handle: \(sent[0])")
        #expect(sent[1]["path"] == Self.mobile + "authenticate" && sent[1]["registration"] == "live"
                && sent[1]["authorization_scheme"] == "UIDPASSWORD" && sent[1]["authorization_client"] == "WhitePages", "\(sent[1])")
        let regs = try registrations()
        try #require(regs.count == 1, "\(regs)")
        #expect(regs[0]["user"] as? String == Self.user && regs[0]["client_id"] as? String == "WhitePages" && regs[0]["uses"] as? Int == 1)
        let profile = try #require(regs[0]["device_profile"] as? [String: String])
        #expect(profile["oracle:idm:claims:client:sdkversion"]?.hasPrefix("authdeck ") == true && profile["oracle:idm:claims:client:ostype"] == "Linux"
                && profile["oracle:idm:claims:client:osversion"]?.isEmpty == false && profile["hardwareIds"] == "0", "\(profile)")
        // Sealed with the account: URL-decoded from the answer (the header carries it as issued).
        let held = try #require(try handle())
        #expect(held.hasSuffix("+/="), "decoded from the URL-encoded answer: \(held)")
        #expect(try account()?.credentials.extras["oam.registration.device"]?.exposedValue.isEmpty == false)

        // The same user again: no registration, the handle used once more.
        let again = try login()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("Registered"), "\(again.stderr)")
        #expect(try calls("register").count == 1)
        #expect(try registrations().first?["uses"] as? Int == 2)
        #expect(try handle() == held)
        // Another user registers a handle of their own.
        let jiro = try login("jiro@contoso.com", password: "jiro-pass-123")
        #expect(jiro.status == 0, "\(jiro.stderr)")
        #expect(try calls("register").count == 2)
        let users = Set(try registrations().compactMap { $0["user"] as? String })
        #expect(users == [Self.user, "jiro@contoso.com"], "\(users)")
        let jiroHandle = try #require(try handle("jiro@contoso.com"))
        #expect(jiroHandle != held)
        #expect(try calls("authenticate").last?["registration"] == "live")
        let listed = try run("accounts", "--json")
        #expect(listed.stdout.components(separatedBy: "\"state\" : \"signed_in\"").count == 3, "\(listed.stdout)")
        try expectNowhereInClear(held, [first, again, jiro, listed])
        try expectNowhereInClear(jiroHandle, [])
    }

    @Test func aRevokedHandleIsRegisteredAnewOnceWithThePasswordAtHand() throws {
        #expect(try login().status == 0)
        let old = try #require(try handle())
        #expect(try idp.admin("oam/rest/registrations", #"{"action":"revoke","username":"taro@contoso.com"}"#).contains("\"changed\":1"))
        // A wrong password: the refused call is followed by one registration, which fails too; nothing more.
        let before = try calls().count
        let wrong = try login(password: "nope")
        #expect(wrong.status == 3 && wrong.stderr.contains("refused the user name and password (HTTP 401)"), "\(wrong.stderr)")
        #expect(try calls().dropFirst(before).map { $0["operation"] ?? "" } == ["authenticate", "register"])
        #expect(try handle() == old, "nothing deleted")
        // The right password: registered again, once, and the new handle sealed in place of the old one.
        let r = try login()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("no longer accepted this device's registration; registered again"), "\(r.stderr)")
        let regs = try registrations()
        #expect(regs.count == 2 && regs.filter { $0["revoked"] as? Bool == false }.count == 1, "\(regs)")
        let new = try #require(try handle())
        #expect(new != old)
        #expect(try calls("authenticate").last?["registration"] == "live")
        try expectNowhereInClear(old, [wrong, r])
        try expectNowhereInClear(new, [])
    }

    @Test func aRenewalRegistersAnewWithTheRememberedPasswordElseNeedsASignInWithNothingDeleted() throws {
        try configure(", remember_credentials_allowed = true, remember_credentials_default = true")
        #expect(try login().status == 0)
        let old = try #require(try handle())
        #expect(try idp.admin("oam/rest/registrations", #"{"action":"revoke"}"#).contains("\"changed\":1"))
        // A server outage while registering again changes nothing.
        try idp.admin("fail", #"{"count":1,"status":503,"path":"/register"}"#)
        let before = try #require(try account())
        let down = try run("refresh", "ms", "--force")
        #expect(down.status == 4, "\(down.stdout) \(down.stderr)")
        let unchanged = try #require(try account())
        #expect(unchanged.credentials == before.credentials && unchanged.account.lastError == nil)
        // With the server back: the remembered password registers again, once.
        let renewed = try run("refresh", "ms", "--force")
        #expect(renewed.status == 0, "\(renewed.stderr)")
        #expect(try calls("register").count == 3, "the first sign-in's, the one refused with 503, this one")
        let new = try #require(try handle())
        #expect(new != old)
        #expect(try run("refresh", "ms", "--force").status == 0)
        #expect(try calls("register").count == 3, "the new handle serves the next renewal")

        // Without a remembered password a renewal cannot register: needs sign-in, nothing deleted.
        try configure(", remember_username_allowed = true, remember_username_default = true")
        #expect(try login().status == 0)
        #expect(try account()?.credentials.extras["oam.password"] == nil)
        #expect(try idp.admin("oam/rest/registrations", #"{"action":"revoke"}"#).contains("\"changed\":1"))
        let kept = try #require(try account())
        let refused = try run("refresh", "ms", "--force")
        #expect(refused.status == 3 && refused.stderr.contains("sign in again: `authdeck login ms`"), "\(refused.stderr)")
        let after = try #require(try account())
        #expect(after.credentials == kept.credentials, "nothing deleted")
        #expect(try calls("register").count == 3)
    }

    @Test func logoutKeepsTheHandleAndClearRegistrationDeletesItAtTheServerAndHere() throws {
        #expect(try login().status == 0)
        let held = try #require(try handle())
        let plain = try run("logout", "ms")
        #expect(plain.status == 0, "\(plain.stderr)")
        let logout = try #require(try calls("logout").last)
        #expect(logout["path"] == Self.mobile + "logout" && logout["registration"] == "live" && logout["clearregistrationhandles"] == nil, "\(logout)")
        let kept = try #require(try account())
        #expect(kept.credentials.accessTokens.isEmpty && kept.credentials.extras["oam.registration.assertion"]?.exposedValue == held)
        #expect(try registrations().first?["deleted"] as? Bool == false)
        // Signing in again uses the kept handle.
        #expect(try login().status == 0)
        #expect(try calls("register").count == 1)
        // Signed out with the session live: the session ends and the handle is deleted at the server, then here.
        let cleared = try run("logout", "ms", "--clear-registration")
        #expect(cleared.status == 0, "\(cleared.stderr)")
        let clear = try #require(try calls("logout").last)
        #expect(clear["clearregistrationhandles"] == "true" && clear["registration"] == "live"
                && clear["x-idaas-rest-subject-value"] == "present", "\(clear)")
        #expect(try registrations().first?["deleted"] as? Bool == true)
        #expect(try account() == nil)
        let rest = try #require(try JSONSerialization.jsonObject(with: Data(idp.admin("oam/rest").utf8)) as? [String: Any])
        #expect(rest["user_tokens_revoked"] as? Int == 2, "both sessions ended: \(rest)")
        // The next sign-in registers anew; a plain logout then a clear deletes the handle with no session held.
        #expect(try login().status == 0)
        #expect(try calls("register").count == 2)
        #expect(try run("logout", "ms").status == 0)
        let late = try run("logout", "ms", "--clear-registration")
        #expect(late.status == 0, "\(late.stderr)")
        let lateCall = try #require(try calls("logout").last)
        #expect(lateCall["clearregistrationhandles"] == "true" && lateCall["x-idaas-rest-subject-value"] == nil, "\(lateCall)")
        let all = try registrations()
        #expect(all.allSatisfy { $0["deleted"] as? Bool == true }, "\(all)")
        #expect(try account() == nil)
        try expectNowhereInClear(held, [plain, cleared, late])
    }

    @Test func aServerOutageAtClearRegistrationDeletesNothing() throws {
        #expect(try login().status == 0)
        let before = try #require(try account())
        try idp.admin("fail", #"{"count":1,"status":503,"path":"/logout"}"#)
        let r = try run("logout", "ms", "--clear-registration")
        #expect(r.status == 4 && r.stderr.contains("Nothing was deleted"), "\(r.stderr)")
        #expect(try account()?.credentials == before.credentials)
        #expect(try registrations().first?["deleted"] as? Bool == false)
    }

    /// The guide's own configuration URL, with https to the emulator behind a TLS front and the
    /// test CA as the provider's `ca_file`: signs in, lists and signs out with this server type.
    @Test func theGuidesConfigurationURLOverHTTPSSignsInListsAndSignsOut() throws {
        let front = try TLSFront(upstream: idp.url, in: home, name: "server")
        defer { withExtendedLifetime(front.process) {} }

        try home.writeConfig("")
        let url = "wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=\(front.url)&OAMMSServiceDomain::=MobileServiceDomain&ApplicationName::=WhitePages"
        let imported = try run("config", "import-url", url)
        #expect(imported.status == 0, "\(imported.stderr)")
        // Untrusted until the test CA is named: TLS is verified.
        let untrusted = try run("login", "whitepages", "--password", "--username", Self.user, password: Self.password)
        #expect(untrusted.status == 1 && untrusted.stderr.contains("TLS certificate not trusted"), "\(untrusted.stderr)")
        #expect(try calls().isEmpty)
        let config = home.file("config/authdeck/config.toml")
        let text = try String(contentsOfFile: config, encoding: .utf8)
        try #require(text.contains("options = { "), "\(text)")
        try home.writeConfig(text.replacingOccurrences(of: "options = { ", with: "options = { ca_file = \"\(front.certificate)\", "))

        let r = try run("login", "whitepages", "--password", "--username", Self.user, password: Self.password)
        #expect(r.status == 0, "\(r.stderr)")
        let sent = try #require(try calls().first)
        #expect(sent["path"] == "/oic_rest/rest/oamauthentication/authenticate" && sent["service_domain"] == "MobileServiceDomain", "\(sent)")
        let listed = try run("accounts", "--json")
        let rows = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let row = try #require(rows.first { $0["provider"] as? String == "whitepages" }, "\(listed.stdout)")
        #expect(row["state"] as? String == "signed_in" && row["username"] as? String == Self.user, "\(row)")
        let out = try run("logout", "whitepages")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try calls("logout").last?["x-idaas-rest-subject-value"] == "present")
        let rest = try #require(try JSONSerialization.jsonObject(with: Data(idp.admin("oam/rest").utf8)) as? [String: Any])
        #expect(rest["user_tokens_revoked"] as? Int == 1, "\(rest)")
    }
}
