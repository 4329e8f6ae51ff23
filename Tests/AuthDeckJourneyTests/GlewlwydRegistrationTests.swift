import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Sign-in with only an issuer URL (issue 29): an `oidc` provider with no `client_id` registers
/// itself at real glewlwyd's RFC 7591 endpoint (`DCR=1`), once, keeps the registration sealed,
/// and deletes it at the server with `logout --clear-registration` of its last account.
@Suite(.serialized, .enabled(if: GlewlwydServer.installed,
                             "SKIPPED: glewlwyd is not installed (apt-get install glewlwyd) — the registration proof did not run"))
struct GlewlwydRegistrationTests {
    let server: GlewlwydServer
    let home = TempDirectory("authdeck-dcr")
    let runner: BinaryRunner

    init() throws {
        server = try GlewlwydServer(dynamicRegistration: true)
        runner = BinaryRunner.authdeck(home: home)
        try home.writeConfig(server.issuerOnlyTOML())
    }

    func run(_ args: String..., env: [String: String] = [:]) throws -> BinaryRunner.Result { try runner.run(args, env: env) }

    func passwordLogin() throws -> BinaryRunner.Result {
        try run("login", "gl", "--password", "--username", GlewlwydServer.user, env: ["AUTHDECK_PASSWORD": GlewlwydServer.password])
    }

    func store() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
    }

    func registered(_ name: String) throws -> String? { try store().providerSecret("registration." + name, provider: "gl")?.exposedValue }

    /// The store's files as bytes (the database and its WAL), to look for secrets in clear.
    func storeBytes() throws -> Data {
        let db = home.file("data/authdeck/authdeck.db")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: db + "-wal")) { bytes.append(wal) }
        return bytes
    }

    @Test func aPasswordSignInRegistersOnceAndTheSecondReusesIt() throws {
        let before = try server.clientIds()
        let first = try passwordLogin()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("Registered authdeck as a client at \(server.issuer)"), "\(first.stderr)")
        let clientId = try #require(try registered("client_id"))
        #expect(Set(try server.clientIds()) == Set(before + [clientId]), "one client more at the issuer")
        // glewlwyd took the device grant by its own name on the retry.
        #expect(try registered("grant_types")?.contains("device_authorization") == true)

        let second = try passwordLogin()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("Registered"), "\(second.stderr)")
        #expect(try server.clientIds().count == before.count + 1, "the second sign-in reused the registration")
        #expect(try registered("client_id") == clientId)

        // Renewal goes through the same client; `providers` says where it was registered.
        #expect(try run("refresh", "gl", "--force").status == 0)
        let providers = try run("providers").stdout
        #expect(providers.contains("gl: registered dynamically at \(server.issuer) on ") && providers.contains(clientId), "\(providers)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(try run("providers", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(json.first?["client"] as? String == "dynamic")
        // A registered client is for a person's sign-in: no client flow is offered.
        #expect(json.first?["flows"] as? [String] == ["device", "browser", "password"], "\(json)")
        // A wrong password is the person's mistake, said so (exit 3), not the endpoints'.
        let wrong = try run("login", "gl", "--password", "--username", GlewlwydServer.user, env: ["AUTHDECK_PASSWORD": "wrong-pass"])
        #expect(wrong.status == 3 && wrong.stderr.contains("did not accept the username or password"), "\(wrong.stderr)")

        // Its secrets are sealed: neither the client secret nor the registration access token
        // is in the store's bytes in clear. (The client id is a public name: the id_token's
        // `aud` claim, kept in clear like the other claims, says it anyway.)
        let bytes = try storeBytes()
        for name in ["client_secret", "access_token", "client_uri"] {
            let value = try #require(try registered(name), "\(name) stored")
            #expect(bytes.range(of: Data(value.utf8)) == nil, "\(name) in clear in the store")
        }
        #expect(!(try String(contentsOfFile: home.file("config/authdeck/config.toml"), encoding: .utf8)).contains(clientId))
    }

    /// Signs taro in with the device flow, approving the code as the person would.
    @discardableResult
    func deviceLogin() throws -> LiveProcess {
        let login = try LiveProcess(runner.executable, ["login", "gl", "--device"], environment: runner.environment)
        let code = try login.waitFor("the user code") { text -> String? in
            guard let r = text.range(of: "enter the code ") else { return nil }
            let rest = text[r.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            return rest.count >= 8 ? String(rest) : nil
        }
        let clientId = try #require(try registered("client_id"))
        try login.keepsRunning(for: 2.5, "the user approved the code")
        try server.approveDevice(userCode: code, client: clientId)
        #expect(try login.wait(timeout: 60) == 0, "\(login.stderr)")
        return login
    }

    @Test func theDeviceFlowWorksThroughTheRegisteredClient() throws {
        let login = try deviceLogin()
        #expect(login.stdout.contains("Signed in as taro"))
    }

    /// Issue 39: the README's config (no allow_password) registered the client without the
    /// password grant while `providers` listed the flow, and adding `allow_password = true`
    /// later changed nothing. The registration is updated in place (RFC 7592 PUT): the same
    /// client, its account still renewing, and `providers` lists what it allows.
    @Test func allowPasswordAddedLaterUpdatesTheRegistrationInPlace() throws {
        try home.writeConfig(server.issuerOnlyTOML(allowPassword: false))
        try deviceLogin()
        let clientId = try #require(try registered("client_id"))
        let secret = try #require(try registered("client_secret"))
        func flows() throws -> [String]? {
            let json = try JSONSerialization.jsonObject(with: Data(try run("providers", "--json").stdout.utf8)) as? [[String: Any]]
            return json?.first?["flows"] as? [String]
        }
        #expect(try flows() == ["device", "browser"], "the registration has no password grant")
        let refused = try passwordLogin()
        #expect(refused.status == 2 && refused.stderr.contains("set options.allow_password = true"), "\(refused.status) \(refused.stderr)")

        try home.writeConfig(server.issuerOnlyTOML(allowPassword: true))
        let said = try run("providers").stdout
        #expect(said.contains("gl: config.toml asks for the registration with the password grant: the next sign-in updates it"), "\(said)")
        let login = try passwordLogin()
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stderr.contains("Updated authdeck's client registration at \(server.issuer) with the password grant, as config.toml asks"),
                "\(login.stderr)")
        #expect(try registered("client_id") == clientId, "the same client")
        #expect(try server.clientIds().filter { $0 == clientId }.count == 1)
        #expect(try registered("client_secret") != secret, "glewlwyd issues a new secret on update, and it is kept")
        #expect(try flows() == ["device", "browser", "password"])
        #expect(!(try run("providers").stdout.contains("next sign-in")))
        // The account the device flow signed in renews through the updated client.
        let renewed = try run("refresh", "taro", "--force")
        #expect(renewed.status == 0, "\(renewed.stderr)")
    }

    /// A registration the server cannot update (no registration_client_uri or access token:
    /// no RFC 7592 management): a sign-in that needs the missing grant registers anew and
    /// deletes the old client, and says so.
    @Test func aRegistrationTheServerCannotUpdateIsReplacedAndSaid() throws {
        try home.writeConfig(server.issuerOnlyTOML(allowPassword: false))
        try deviceLogin()
        let old = try #require(try registered("client_id"))
        // What a server without management answers leaves authdeck without these.
        let store = try store()
        var kept: [String: Secret] = [:]
        for name in ["client_id", "client_secret", "issuer", "registered_at", "auth_method", "grant_types", "redirect_uri"] {
            kept["registration." + name] = try store.providerSecret("registration." + name, provider: "gl")
        }
        try store.replaceProviderSecrets(prefix: "registration.", with: kept.compactMapValues { $0 }, provider: "gl")

        try home.writeConfig(server.issuerOnlyTOML(allowPassword: true))
        let login = try passwordLogin()
        #expect(login.status == 0, "\(login.stderr)")
        let fresh = try #require(try registered("client_id"))
        #expect(fresh != old)
        #expect(login.stderr.contains("cannot update authdeck's client registration, so authdeck registered anew (client \(fresh), with the password grant) "
                                      + "and the old client \(old) is left at the issuer"), "\(login.stderr)")
        #expect(try server.clientIds().contains(fresh))
        #expect(try registered("requested_grants")?.contains("password") == true)
        // A second sign-in finds nothing to change.
        let again = try passwordLogin()
        #expect(again.status == 0 && !again.stderr.contains("registered anew") && !again.stderr.contains("Updated"), "\(again.stderr)")
        #expect(try registered("client_id") == fresh)
    }

    @Test func clearRegistrationWithTheLastAccountDeletesTheClientAtGlewlwyd() throws {
        #expect(try passwordLogin().status == 0)
        let clientId = try #require(try registered("client_id"))
        let uri = try #require(try registered("client_uri"))
        let token = try #require(try registered("access_token"))
        #expect(try server.clientIds().contains(clientId))
        let out = try run("logout", "taro", "--clear-registration")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("The client registration is deleted at the issuer and here"), "\(out.stdout)")
        #expect(try !server.clientIds().contains(clientId), "the client is gone at glewlwyd")
        // RFC 7592: the registration access token no longer reads it.
        let read = try EmulatorProcess.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", uri])
        #expect(read != "200", "\(read)")
        #expect(try registered("client_id") == nil && registered("client_secret") == nil)
        #expect(try run("providers", "unregister", "gl").stdout.contains("holds no client registration"))
        // The next sign-in registers a new client.
        let again = try passwordLogin()
        #expect(again.status == 0 && again.stderr.contains("Registered authdeck"), "\(again.stderr)")
        #expect(try registered("client_id") != clientId)
    }

    /// Issue 42: the deck's sign-out follows `logout`'s rules, which live in one use case. `d`
    /// then `c` on the provider's last account deletes the client at glewlwyd, as
    /// `logout --clear-registration` does, and the default `use` set goes with its account.
    @Test func theDecksSignOutOfTheLastAccountDeletesTheClientAndTheDefault() throws {
        #expect(try passwordLogin().status == 0)
        let clientId = try #require(try registered("client_id"))
        #expect(try run("use", "taro").status == 0)
        func defaults() throws -> [String] {
            let json = try #require(JSONSerialization.jsonObject(with: Data(try run("use", "--json").stdout.utf8)) as? [[String: Any]])
            return json.compactMap { $0["provider"] as? String }
        }
        #expect(try defaults() == ["gl"])
        var env = runner.environment
        env["TERM"] = "xterm-256color"
        env["LANG"] = "C.UTF-8"
        let s = try TmuxSession(environment: env, command: "\(runner.executable); echo EXIT=$?")
        try s.waitFor("the provider marked dynamic and taro's row") { $0.contains("OIDC·dyn") && $0.contains("taro") }
        try s.send("d")
        try s.waitFor(text: "c sign out and clear the registration")
        try s.send("c")
        try s.waitFor(text: "Signed out gl/", timeout: 30)
        try s.send("q")
        try s.waitFor(text: "EXIT=0")
        #expect(try defaults().isEmpty, "`gl` names no signed-out account")
        #expect(try store().defaultAccount(provider: "gl") == nil, "cleared in the store, not only hidden from `use`")
        #expect(try !server.clientIds().contains(clientId), "the client is gone at glewlwyd")
        #expect(try registered("client_id") == nil && registered("access_token") == nil)
        #expect(try run("providers", "unregister", "gl").stdout.contains("holds no client registration"))
    }

    @Test func unregisterIsRefusedWhileAccountsUseTheClient() throws {
        #expect(try passwordLogin().status == 0)
        let r = try run("providers", "unregister", "gl")
        #expect(r.status == 1 && r.stderr.contains("sign them out first"), "\(r.stderr)")
        #expect(try registered("client_id") != nil)
    }

    /// An issuer with no registration endpoint: a clear error that names what to set.
    @Test func anIssuerWithoutRegistrationNeedsAClientId() throws {
        let plain = try GlewlwydServer()
        try home.writeConfig(plain.issuerOnlyTOML())
        let r = try passwordLogin()
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("this issuer needs a client_id: \(plain.issuer) offers no registration_endpoint"), "\(r.stderr)")
        #expect(try registered("client_id") == nil)
    }

    /// Issue 39: `providers` promised "registers a client at its issuer on the first sign-in"
    /// for an issuer that offers no registration; only `login` said it needs a client_id. It
    /// checks discovery (cached in the store: no network call while that is fresh), and a
    /// discovery it cannot read leaves it saying so, never failing.
    @Test func providersSaysAnIssuerWithoutRegistrationNeedsAClientId() throws {
        let before = try run("providers")
        #expect(before.status == 0 && before.stdout.contains("gl: no client_id: registers a client at its issuer on the first sign-in\n"),
                "\(before.stdout)")
        let plain = try GlewlwydServer()
        try home.writeConfig(plain.issuerOnlyTOML())
        let said = "gl: not ready to sign in: this issuer needs a client_id: \(plain.issuer) offers no registration_endpoint"
        let fresh = try run("providers")
        #expect(fresh.status == 0 && fresh.stdout.contains(said), "\(fresh.stdout)")
        #expect(!fresh.stdout.contains("registers a client"), "\(fresh.stdout)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(try run("providers", "--json").stdout.utf8)) as? [[String: Any]])
        #expect((json.first?["problem"] as? String)?.hasPrefix("this issuer needs a client_id") == true, "\(json)")
        // A sign-in creates the store and caches discovery there; with the issuer gone,
        // `providers` still says it, from the cache.
        #expect(try passwordLogin().status == 1)
        kill(plain.pid, SIGTERM)
        for _ in 0..<250 where kill(plain.pid, 0) == 0 { usleep(20_000) }
        #expect((try? EmulatorProcess.curl(["-s", "-o", "/dev/null", "--max-time", "2", "\(plain.issuer)/.well-known/openid-configuration"])) == nil,
                "the issuer is gone")
        let cached = try run("providers")
        #expect(cached.status == 0 && cached.stdout.contains(said), "\(cached.stdout) \(cached.stderr)")
        // An issuer nobody answers for: `providers` answers, and says what it could not check.
        try home.writeConfig(plain.issuerOnlyTOML().replacingOccurrences(of: "/api/oidc", with: "/other/oidc"))
        let down = try run("providers")
        #expect(down.status == 0, "\(down.stderr)")
        #expect(down.stdout.contains("gl: no client_id: registers a client at its issuer on the first sign-in if the issuer offers registration (not checked: "),
                "\(down.stdout)")
    }
}
