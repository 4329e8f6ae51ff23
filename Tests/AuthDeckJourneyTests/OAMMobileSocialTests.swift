import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// The OAM Mobile and Social REST server type (issue 41) through the real binary and the
/// emulator, which checks the REST calls on its own (PROVIDERS.md §5) and reports them.
@Suite(.serialized) struct OAMMobileSocialTests: MobileSocialSuite {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-oamms")
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home, [:])
        try configure()
    }

    @Test func aPasswordTypedOnceSignsInForAUserTokenAndLogoutEndsTheSession() throws {
        let r = try login()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Signed in as taro@contoso.com (ms/"), "\(r.stdout)")
        // One REST call, as PROVIDERS.md shapes it; no OAuth token endpoint was asked.
        let sent = try calls()
        try #require(sent.count == 1, "\(sent)")
        #expect(sent[0]["path"] == "/oic_rest/rest/oamauthentication/authenticate")
        #expect(sent[0]["service_domain"] == "MobileServiceDomain" && sent[0]["content_type"]?.hasPrefix("application/json") == true)
        #expect(sent[0]["user_agent"]?.hasPrefix("OIC") == true, "the SDK's User-Agent prefix: \(sent[0])")
        #expect(sent[0]["x-idaas-rest-subject-type"] == "USERCREDENTIAL" && sent[0]["x-idaas-rest-new-token-type-to-create"] == "USERTOKEN")
        #expect(sent[0]["x-idaas-rest-subject-username"] == Self.user)
        #expect(try idp.count("POST /ms_oauth/oauth2/endpoints/oauthservice/tokens") == 0)
        // The user token is held sealed, URL-decoded, and is what `token` hands out.
        let held = try #require(try account()?.credentials.accessTokens.first)
        #expect(held.tokenType == "USERTOKEN" && held.value.exposedValue.hasSuffix("+/="), "decoded from the URL-encoded answer")
        let token = try run("token", "ms")
        #expect(token.status == 0 && token.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == held.value.exposedValue)
        #expect(try run("accounts", "--json").stdout.contains("\"state\" : \"signed_in\""))
        // `request` never sends the user token to a resource: unchallenged, it goes bare, with
        // the SDK's User-Agent (OAMWebGateRequestTests answer a WebGate's challenge).
        let request = try run("request", "ms", "\(idp.url)/api/echo")
        #expect(request.status == 0, "\(request.stderr)")
        #expect(!request.stdout.lowercased().contains("authorization") && !request.stdout.contains(held.value.exposedValue), "\(request.stdout)")
        #expect(request.stdout.contains("OIC authdeck-oam-sdk/1"), "\(request.stdout)")

        // Logout: the server's session first, then the local tokens.
        let out = try run("logout", "ms")
        #expect(out.status == 0, "\(out.stderr)")
        let last = try #require(try calls().last)
        #expect(last["path"] == "/oic_rest/rest/oamauthentication/logout" && last["x-idaas-rest-subject-value"] == "present", "\(last)")
        #expect(try report()["user_tokens_revoked"] as? Int == 1)
        #expect(try account()?.credentials.accessTokens.isEmpty ?? true)
    }

    @Test func aWrongPasswordIsRefusedAndTheServiceDomainIsRequired() throws {
        let wrong = try run("login", "ms", "--password", "--username", Self.user, password: "nope")
        #expect(wrong.status == 3 && wrong.stderr.contains("refused the user name and password (HTTP 401)"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("nope"))
        #expect(try account() == nil)
        try home.writeConfig("""
            [[provider]]
            id = "ms"
            kind = "oam"
            endpoints = { base = "\(idp.url)" }
            options = { server_type = "mobile-social" }

            """)
        let missing = try login()
        #expect(missing.status != 0 && missing.stderr.contains("options.service_domain"), "\(missing.stderr)")
    }

    @Test func aRememberedPasswordSignsInSilentlyAndOfflineRulesAreTheSame() throws {
        try configure(", remember_credentials_allowed = true, remember_credentials_default = true, offline_auth_allowed = true, max_login_attempts = 2")
        #expect(try login().status == 0)
        #expect(try account()?.credentials.extras["oam.password"] != nil)
        // No username, no password: the remembered ones, without asking.
        let again = try run("login", "ms", "--password")
        #expect(again.status == 0 && again.stderr.contains("Using the stored credentials of taro@contoso.com"), "\(again.stderr)")
        #expect(try calls().count == 2)
        // Offline: the verifier, not the server; MaxLoginAttempts wipes it.
        let offline = try run("login", "ms", "--offline", password: Self.password)
        #expect(offline.status == 0 && offline.stdout.contains("Verified offline"), "\(offline.stderr)")
        #expect(try calls().count == 2)
        _ = try run("login", "ms", "--offline", password: "nope")
        let locked = try run("login", "ms", "--offline", password: "nope")
        #expect(locked.status == 3 && locked.stderr.contains("after 2 failed offline attempts"), "\(locked.stderr)")
        #expect(try account()?.credentials.extras["oam.verifier"] == nil)
    }

    @Test func theGuidesConfigurationURLSignsInWithThisServerType() throws {
        try home.writeConfig("")
        let url = "wp://settings?AuthServerType::=OAMMSAuthentication&OAMMSURL::=\(idp.url)&OAMMSServiceDomain::=MobileServiceDomain&ApplicationName::=WhitePages"
        let imported = try run("config", "import-url", url)
        #expect(imported.status == 0, "\(imported.stderr)")
        let r = try run("login", "whitepages", "--password", "--username", Self.user, password: Self.password)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try calls().first?["path"] == "/oic_rest/rest/oamauthentication/authenticate")
    }
}
