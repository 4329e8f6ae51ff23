import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport

/// Oracle Access Management through the real binary and the emulator.
@Suite(.serialized) struct OAMTests {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-oam")
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner(product: "authdeck", environment: [
            "HOME": home.path, "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"),
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "OAM_SECRET": "oam-secret",
        ])
        try writeConfig()
    }

    func provider(_ id: String, preset: String, options: String = "") -> String {
        """
        [[provider]]
        id = "\(id)"
        kind = "oam"
        client_id = "oam-client"
        client_secret_env = "OAM_SECRET"
        scopes = ["UserProfile.me"]
        endpoints = { base = "\(idp.url)" }
        options = { preset = "\(preset)", identity_domain = "DefaultDomain"\(options) }

        """
    }

    func writeConfig(_ extra: String = "") throws {
        try FileManager.default.createDirectory(atPath: home.file("config/authdeck"), withIntermediateDirectories: true)
        try (provider("wp", preset: "11g-ms") + provider("rest", preset: "12c", options: ", uppercase_grant_types = true") + extra)
            .write(toFile: home.file("config/authdeck/config.toml"), atomically: true, encoding: .utf8)
    }

    func run(_ args: String..., password: String? = nil) throws -> BinaryRunner.Result {
        var r = runner
        if let password { r.environment["AUTHDECK_PASSWORD"] = password }
        return try r.run(args)
    }

    func store() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
    }

    @Test func passwordSignInAndRefreshOnBothPresetsWithTheIdentityDomain() throws {
        for provider in ["wp", "rest"] {
            let r = try run("login", provider, "--password", "--username", "taro@contoso.com", password: "taro-pass-123")
            #expect(r.status == 0, "\(provider): \(r.stderr)")
            #expect(r.stdout.contains("Signed in as taro@contoso.com (\(provider)/"))
            let renewed = try run("refresh", provider)
            #expect(renewed.status == 0, "\(provider): \(renewed.stderr)")
        }
        let issued = try idp.admin("issued")
        #expect(issued.contains("\"POST /ms_oauth/oauth2/endpoints/oauthservice/tokens\":2"), "\(issued)")
        #expect(issued.contains("\"POST /oauth2/rest/token\":2"), "\(issued)")
    }

    @Test func withoutTheIdentityDomainTheServerRefuses() throws {
        try FileManager.default.removeItem(atPath: home.file("config/authdeck/config.toml"))
        try provider("wp", preset: "11g-ms").replacingOccurrences(of: ", identity_domain = \"DefaultDomain\"", with: "")
            .write(toFile: home.file("config/authdeck/config.toml"), atomically: true, encoding: .utf8)
        let r = try run("login", "wp", "--password", "--username", "taro@contoso.com", password: "taro-pass-123")
        #expect(r.status == 1)
        #expect(r.stderr.contains("The identity domain is missing"), "\(r.stderr)")
    }

    @Test func aCachedTokenIsReusedOnlyWhenItsScopesCoverTheRequest() throws {
        #expect(try run("login", "wp", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        let first = try run("token", "wp")
        let again = try run("token", "wp", "--scope", "UserProfile.me")
        #expect(first.stdout == again.stdout, "covered scopes reuse the cached token")
        let wider = try run("token", "wp", "--scope", "Calendar.read")
        #expect(wider.status == 0 && wider.stdout != first.stdout, "another scope is renewed for")
        let tokens = try #require(try store().accounts(includeQuarantined: false).first).credentials.accessTokens
        #expect(Set(tokens.map(\.scopes)) == [["UserProfile.me"], ["Calendar.read"]])
    }

    @Test func clientCredentialsAndLogoutRevokesAtTheServer() throws {
        #expect(try run("login", "rest", "--client").status == 0)
        #expect(try run("token", "oam-client").status == 0)
        #expect(try run("login", "wp", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        let out = try run("logout", "wp", "--json")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("\"revoked_at_server\" : true"))
        #expect(try idp.admin("issued").contains("\"refresh_tokens_revoked\":1"))
    }
}
