import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Oracle Access Management through the real binary and the emulator.
@Suite(.serialized) struct OAMTests {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-oam")
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home, ["OAM_SECRET": "oam-secret"])
        try writeConfig()
    }

    func provider(_ id: String, preset: String, options: String = "") -> String {
        idp.oamTOML(id, preset: preset, options: options)
    }

    func writeConfig(_ extra: String = "") throws {
        try home.writeConfig(provider("wp", preset: "11g-ms") + provider("rest", preset: "12c", options: ", uppercase_grant_types = true") + extra)
    }

    func run(_ args: String..., password: String? = nil) throws -> BinaryRunner.Result {
        var r = runner
        if let password { r.environment["AUTHDECK_PASSWORD"] = password }
        return try r.run(args)
    }

    func store() throws -> DeckStore {
        try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
    }

    @Test func requestCarriesTheTokenAndTheIdentityDomainHeader() throws {
        #expect(try run("login", "wp", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        // The OAM-protected profile resource, as the SDK's REST handler would call it.
        let profile = try run("request", "wp", "\(idp.url)/ms_oauth/resources/userprofile/me")
        #expect(profile.status == 0, "\(profile.stderr)")
        #expect(profile.stdout.contains("\"uid\":\"taro@contoso.com\""))
        // What went on the wire: the bearer token and the identity domain, as for the token endpoint.
        let echo = try run("request", "wp", "\(idp.url)/api/echo")
        let sent = try #require(JSONSerialization.jsonObject(with: Data(echo.stdout.utf8)) as? [String: Any])
        let headers = try #require(sent["headers"] as? [String: String])
        #expect(headers["x-oauth-identity-domain-name"] == "DefaultDomain")
        #expect(headers["authorization"]?.hasPrefix("Bearer ") == true)
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
        try home.writeConfig(provider("wp", preset: "11g-ms").replacingOccurrences(of: ", identity_domain = \"DefaultDomain\"", with: ""))
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

    // MARK: The SDK's credential rules

    func extras(_ id: String? = nil) throws -> [String: Secret] {
        let accounts = try store().accounts(includeQuarantined: true).filter { $0.account.providerId == (id ?? "sdk") }
        return try #require(accounts.first).credentials.extras
    }

    func sdkProvider(_ options: String) throws {
        try writeConfig(provider("sdk", preset: "11g-ms", options: ", " + options))
    }

    @Test func offlineSignInSucceedsFailsAndLocksOutAfterMaxLoginAttempts() throws {
        try sdkProvider(#"offline_auth_allowed = true, max_login_attempts = 2, remember_username_allowed = true, remember_username_default = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        let stored = try extras()
        #expect(stored["oam.verifier"]?.exposedValue.hasPrefix("scrypt$32768$8$1$") == true)
        #expect(stored["oam.password"] == nil, "remember-username keeps no password")
        // Offline with the right password: verified without the server (the request count stays).
        let tokenCalls = "POST /ms_oauth/oauth2/endpoints/oauthservice/tokens"
        let before = try idp.count(tokenCalls)
        let ok = try run("login", "sdk", "--offline", password: "taro-pass-123")
        #expect(ok.status == 0 && ok.stdout.contains("Verified offline as taro@contoso.com"), "\(ok.stderr)")
        let tokenCallsAfter = try idp.count(tokenCalls)
        #expect(before > 0 && tokenCallsAfter == before)
        // Wrong twice (MaxLoginAttempts 2): the stored credentials are wiped.
        let wrong = try run("login", "sdk", "--offline", password: "nope")
        #expect(wrong.status == 3 && wrong.stderr.contains("the password is wrong (1 offline attempt(s) left)"), "\(wrong.stderr)")
        let locked = try run("login", "sdk", "--offline", password: "nope")
        // It says what went (the verifier; no password was remembered) and what stays: the
        // tokens, which `authdeck token` still hands out.
        #expect(locked.status == 3 && locked.stderr.contains("after 2 failed offline attempts the offline verifier was deleted; the tokens, username and preferences are kept"), "\(locked.stderr)")
        #expect(!locked.stderr.contains("wiped"))
        #expect(try extras()["oam.verifier"] == nil)
        #expect(try run("token", "sdk").status == 0, "the tokens remain")
        let after = try run("login", "sdk", "--offline", password: "taro-pass-123")
        #expect(after.status == 3 && after.stderr.contains("sign in online first"))
    }

    @Test func offlineNeedsOfflineAuthAllowedAndAutoFallsBackWhenTheServerIsDown() throws {
        try sdkProvider(#"remember_username_allowed = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        let refused = try run("login", "sdk", "--offline", "--username", "taro@contoso.com", password: "taro-pass-123")
        #expect(refused.status == 1 && refused.stderr.contains("does not allow offline sign-in"))
        try sdkProvider(#"offline_auth_allowed = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        try idp.admin("fail", #"{"count":1,"status":503,"path":"/oauthservice/tokens"}"#)
        let auto = try run("login", "sdk", "--auto", "--username", "taro@contoso.com", password: "taro-pass-123")
        #expect(auto.status == 0, "\(auto.stderr)")
        #expect(auto.stderr.contains("cannot be reached") && auto.stdout.contains("Verified offline"))
    }

    @Test func autoLoginWinsOverRememberedCredentialsAndUsername() throws {
        try sdkProvider(#"auto_login_allowed = true, remember_credentials_allowed = true, remember_username_allowed = true, auto_login_default = true, remember_credentials_default = true, remember_username_default = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        #expect(try extras()["oam.remember"]?.exposedValue == "auto")
        #expect(try extras()["oam.password"] != nil)
        // No username, no password: the remembered ones are used.
        let again = try run("login", "sdk", "--password")
        #expect(again.status == 0 && again.stderr.contains("Using the stored credentials of taro@contoso.com"), "\(again.stderr)")
        // Auto-login also renews when the refresh token is refused.
        try idp.admin("revoke", #"{"username":"taro@contoso.com"}"#)
        #expect(try run("refresh", "sdk").status == 0)
        // An explicit choice must be allowed.
        try sdkProvider(#"remember_username_allowed = true"#)
        let notAllowed = try run("login", "sdk", "--password", "--username", "taro@contoso.com", "--remember", "credentials", password: "taro-pass-123")
        #expect(notAllowed.status == 1 && notAllowed.stderr.contains("does not allow remembering credentials"))
    }

    @Test func aFailedSignInWithTheStoredPasswordDeletesIt() throws {
        try sdkProvider(#"remember_credentials_allowed = true, remember_credentials_default = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        // The stored password no longer works (changed at the server): stage it by editing it.
        let s = try store()
        var account = try #require(try s.accounts(includeQuarantined: false).first { $0.account.providerId == "sdk" })
        account.credentials.extras["oam.password"] = Secret("stale-password")
        try s.replaceCredentials(account.credentials, accountId: account.account.id)
        let r = try run("login", "sdk", "--password")
        #expect(r.status == 3 && r.stderr.contains("the stored password was deleted"), "\(r.stderr)")
        #expect(try extras()["oam.password"] == nil)
        #expect(try extras()["oam.remember"]?.exposedValue == "credentials")
    }

    @Test func lockoutNamesTheRememberedPasswordWhenOneWasDeleted() throws {
        try sdkProvider(#"offline_auth_allowed = true, remember_credentials_allowed = true, remember_credentials_default = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        #expect(try extras()["oam.password"] != nil)
        let locked = try run("login", "sdk", "--offline", password: "nope")
        #expect(locked.status == 3, "\(locked.stderr)")
        #expect(locked.stderr.contains("after 1 failed offline attempts the offline verifier and the remembered password were deleted; the tokens, username and preferences are kept (authdeck token still answers while they are valid) — sign in online"), "\(locked.stderr)")
        let left = try extras()
        #expect(left["oam.password"] == nil && left["oam.verifier"] == nil && left["oam.remember"] != nil)
        let events = try run("events", "--json")
        #expect(events.stdout.contains("offline verifier and the remembered password were deleted"), "\(events.stdout)")
        #expect(try run("token", "sdk").status == 0)
    }

    // MARK: An explicit password wins (issue 22, item 1)

    @Test func aGivenPasswordIsTheOneSentAndReplacesTheRememberedOne() throws {
        try sdkProvider(#"remember_credentials_allowed = true, remember_credentials_default = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        #expect(try extras()["oam.password"]?.exposedValue == "taro-pass-123")
        let tokenCalls = "POST /ms_oauth/oauth2/endpoints/oauthservice/tokens"
        // A wrong password in a file: sent as given, refused, and the remembered one untouched.
        try "wrong-pass\n".write(toFile: home.file("wrong"), atomically: true, encoding: .utf8)
        let before = try idp.count(tokenCalls)
        let wrong = try run("login", "sdk", "--password", "--username", "taro@contoso.com", "--password-file", home.file("wrong"))
        #expect(wrong.status == 3, "\(wrong.stdout) \(wrong.stderr)")
        #expect(!wrong.stderr.contains("Using the stored credentials"), "\(wrong.stderr)")
        #expect(try idp.count(tokenCalls) == before + 1)
        #expect(try extras()["oam.password"]?.exposedValue == "taro-pass-123", "a refused password replaces nothing")
        // The same through AUTHDECK_PASSWORD.
        let wrongEnv = try run("login", "sdk", "--password", password: "wrong-pass")
        #expect(wrongEnv.status == 3 && !wrongEnv.stderr.contains("Using the stored credentials"), "\(wrongEnv.stderr)")
        // A stale remembered password, then the right one given: it is sent and remembered.
        let s = try store()
        var account = try #require(try s.accounts(includeQuarantined: false).first { $0.account.providerId == "sdk" })
        account.credentials.extras["oam.password"] = Secret("stale-password")
        try s.replaceCredentials(account.credentials, accountId: account.account.id)
        let given = try run("login", "sdk", "--password", password: "taro-pass-123")
        #expect(given.status == 0, "\(given.stderr)")
        #expect(try extras()["oam.password"]?.exposedValue == "taro-pass-123")
        // No password given: the remembered one is used, and says so.
        let stored = try run("login", "sdk", "--password")
        #expect(stored.status == 0 && stored.stderr.contains("Using the stored credentials of taro@contoso.com"), "\(stored.stderr)")
    }

    @Test func aForbiddenRemembranceIsRefusedBeforeTheStoredCredentialsAreMentioned() throws {
        try sdkProvider(#"remember_credentials_allowed = true, remember_credentials_default = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        let before = try idp.count("POST /ms_oauth/oauth2/endpoints/oauthservice/tokens")
        let r = try run("login", "sdk", "--password", "--remember", "auto")
        #expect(r.status == 1 && r.stderr.contains("does not allow remembering auto"), "\(r.stderr)")
        #expect(!r.stderr.contains("Using the stored credentials") && r.stdout.isEmpty, "\(r.stderr)")
        #expect(try idp.count("POST /ms_oauth/oauth2/endpoints/oauthservice/tokens") == before, "nothing was sent")
    }

    // MARK: After a plain logout (issue 22, item 2)

    @Test func aPlainLogoutLeavesAnAccountThatNeedsASignInNotARenewal() throws {
        try sdkProvider(#"remember_username_allowed = true, remember_username_default = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        #expect(try run("logout", "taro@contoso.com").status == 0)
        let listed = try run("accounts", "--json")
        let rows = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let row = try #require(rows.first { ($0["provider"] as? String) == "sdk" })
        #expect(row["state"] as? String == "needs_sign_in", "\(row)")
        #expect(row["renewable"] == nil || row["renewable"] as? Bool == false, "\(row)")
        #expect(row["state_reason"] as? String == "holds no token; sign in again", "\(row)")
        let table = try run("accounts")
        #expect(table.stdout.contains("needs sign-in") && !table.stdout.contains("(renewable)"), "\(table.stdout)")
        // The same sign-in brings it back, with the remembered username.
        #expect(try run("login", "sdk", "--password", password: "taro-pass-123").status == 0)
        let again = try #require(JSONSerialization.jsonObject(with: Data(try run("accounts", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(again.first { ($0["provider"] as? String) == "sdk" }?["state"] as? String == "signed_in")
    }

    @Test func logoutKeepsTheRegistrationUnlessAskedToClearIt() throws {
        try sdkProvider(#"offline_auth_allowed = true, remember_credentials_allowed = true, remember_credentials_default = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        let out = try run("logout", "taro@contoso.com")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("revoked at the server; the username and preferences are kept"))
        let kept = try #require(try store().accounts(includeQuarantined: true).first { $0.account.providerId == "sdk" })
        #expect(kept.account.username == "taro@contoso.com")
        #expect(kept.credentials.accessTokens.isEmpty && kept.credentials.refreshToken == nil)
        #expect(Set(kept.credentials.extras.keys) == ["oam.remember"], "no password, no verifier: only the preference")
        let cleared = try run("logout", "taro@contoso.com", "--clear-registration")
        #expect(cleared.status == 0 && cleared.stdout.contains("nothing of it is kept"))
        #expect(try store().accounts(includeQuarantined: true).filter { $0.account.providerId == "sdk" }.isEmpty)
        #expect(try run("logout", "oam-client", "--clear-registration").status == 2)
    }

    /// Issue 31, item 2: with the client secret's variable unset, logout skipped revocation and
    /// deleted the whole account, registration included. A secret that cannot be read is a
    /// failed revocation: nothing is deleted, and the message says why and what `--local` does.
    @Test func logoutWithoutTheClientSecretDeletesNothing() throws {
        try sdkProvider(#"remember_username_allowed = true, remember_username_default = true"#)
        #expect(try run("login", "sdk", "--password", "--username", "taro@contoso.com", password: "taro-pass-123").status == 0)
        let before = try #require(try store().accounts(includeQuarantined: true).first { $0.account.providerId == "sdk" })
        var unset = runner
        unset.environment["OAM_SECRET"] = nil
        let out = try unset.run(["logout", "taro@contoso.com"])
        #expect(out.status != 0, "\(out.stdout)")
        #expect(out.stderr.contains("could not revoke at the server") && out.stderr.contains("OAM_SECRET")
                && out.stderr.contains("Nothing was deleted"), "\(out.stderr)")
        let after = try #require(try store().accounts(includeQuarantined: true).first { $0.account.id == before.account.id })
        #expect(after.credentials == before.credentials, "every credential kept")
        #expect(try idp.count("revoke") == 0)
        // --local is the explicit way to delete without the server.
        let local = try unset.run(["logout", "taro@contoso.com", "--local"])
        #expect(local.status == 0, "\(local.stderr)")
    }

    // MARK: Mutual TLS

    /// Makes a test CA, a server certificate for 127.0.0.1 and a client certificate, with openssl.
    func makePKI() throws {
        let d = home.path
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem", "-days", "1", "-subj", "/CN=authdeck test CA"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(d)/server.key", "-out", "\(d)/server.csr", "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key", "-CAcreateserial", "-out", "\(d)/server.pem",
             "-days", "1", "-extfile", "\(d)/san.cnf"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(d)/client.key", "-out", "\(d)/client.csr", "-subj", "/CN=authdeck client"],
            ["x509", "-req", "-in", "\(d)/client.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key", "-CAcreateserial", "-out", "\(d)/client.pem", "-days", "1"],
            ["pkcs12", "-export", "-in", "\(d)/client.pem", "-inkey", "\(d)/client.key", "-out", "\(d)/client.p12", "-passout", "pass:p12-pass"],
        ]
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: "\(d)/san.cnf", atomically: true, encoding: .utf8)
        try openssl(steps)
    }

    func openssl(_ steps: [[String]]) throws {
        for args in steps {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            p.arguments = args
            p.standardError = FileHandle.nullDevice
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "openssl \(args[0])")
        }
    }

    /// A client certificate of the test CA that expired in 2020 (`openssl ca` sets past dates).
    func makeExpiredClient() throws {
        let d = home.path
        try "".write(toFile: "\(d)/index.txt", atomically: true, encoding: .utf8)
        try "01\n".write(toFile: "\(d)/serial", atomically: true, encoding: .utf8)
        try "[ca]\ndefault_ca = d\n[d]\ndatabase = \(d)/index.txt\nnew_certs_dir = \(d)\nserial = \(d)/serial\ndefault_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n"
            .write(toFile: "\(d)/ca.cnf", atomically: true, encoding: .utf8)
        try openssl([["ca", "-batch", "-config", "\(d)/ca.cnf", "-cert", "\(d)/ca.pem", "-keyfile", "\(d)/ca.key", "-in", "\(d)/client.csr",
                      "-out", "\(d)/expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200102000000Z", "-notext"]])
    }

    /// The provider's client-identity rows, by name, opened.
    func identityRows(_ provider: String = "mtls") throws -> [String: String] {
        let s = try store()
        var out: [String: String] = [:]
        for name in ["client.certificate", "client.key", "client.pkcs12", "client.pkcs12.password"] {
            if let v = try s.providerSecret(name, provider: provider) { out[name] = v.exposedValue }
        }
        return out
    }

    /// Issue 26: `import cert` of a PKCS#12 bundle asking for a huge iteration count pinned a
    /// CPU (2^31−1: hours). The count is read first and a bundle past 1,000,000 is refused
    /// before any key is derived. The bundle: OpenSSL's, exported with 65,536 iterations
    /// (DER `02 03 01 00 00`), each count then set to 8,388,607 (`02 03 7F FF FF`).
    @Test func aPKCS12BundleAskingForTooManyIterationsIsRefusedAtOnce() throws {
        try makePKI()
        try home.writeConfig(provider("mtls", preset: "12c"))
        let d = home.path
        try openssl([["pkcs12", "-export", "-in", "\(d)/client.pem", "-inkey", "\(d)/client.key", "-out", "\(d)/iter.p12", "-passout", "pass:p12-pass",
                      "-iter", "65536"]])
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: "\(d)/iter.p12")))
        var patched = 0
        for i in 0..<(bytes.count - 4) where bytes[i..<(i + 5)] == [0x02, 0x03, 0x01, 0x00, 0x00] {
            bytes.replaceSubrange((i + 2)..<(i + 5), with: [0x7F, 0xFF, 0xFF])
            patched += 1
        }
        #expect(patched >= 2, "the MAC's and the encryption's counts were found (\(patched))")
        try Data(bytes).write(to: URL(fileURLWithPath: "\(d)/huge.p12"))
        var r = runner
        r.environment["AUTHDECK_PASSWORD"] = "p12-pass"
        let started = Date()
        let refused = try r.run(["import", "cert", "\(d)/huge.p12", "--provider", "mtls"])
        let took = Date().timeIntervalSince(started)
        print("import cert, 8,388,607 iterations: exit \(refused.status) in \(String(format: "%.2f", took)) s (\(patched) counts patched)")
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("huge.p12: the PKCS#12 bundle asks for 8,388,607 key-derivation iterations, more than the 1,000,000 authdeck allows"),
                "\(refused.stderr)")
        #expect(took < 3, "refused before deriving anything (took \(took) s)")
        #expect(try identityRows().isEmpty)
        // The same bundle unpatched (65,536) is under the cap and imports.
        let fine = try r.run(["import", "cert", "\(d)/iter.p12", "--provider", "mtls"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test func aClientCertificateIsCheckedAtImportAndReplacesThePreviousOne() throws {
        try makePKI()
        try makeExpiredClient()
        try home.writeConfig(provider("mtls", preset: "12c"))
        func importing(_ args: [String], password: String? = nil) throws -> BinaryRunner.Result {
            var r = runner
            r.environment["AUTHDECK_PASSWORD"] = password
            return try r.run(["import", "cert"] + args + ["--provider", "mtls"])
        }
        // A PKCS#12 bundle with the wrong password is refused, and nothing is stored.
        let wrong = try importing([home.file("client.p12")], password: "not-the-password")
        #expect(wrong.status == 1, "\(wrong.stdout) \(wrong.stderr)")
        #expect(wrong.stderr.contains("client.p12: the password does not open the PKCS#12 bundle; nothing was imported"), "\(wrong.stderr)")
        #expect(try identityRows().isEmpty)
        // Not a certificate at all: said so, without asking for a password.
        try "hello, this is not a certificate\n".write(toFile: home.file("garbage.pem"), atomically: true, encoding: .utf8)
        let garbage = try importing([home.file("garbage.pem")])
        #expect(garbage.status == 1, "\(garbage.stderr)")
        #expect(garbage.stderr.contains("garbage.pem: neither a PEM certificate (-----BEGIN CERTIFICATE-----) nor a PKCS#12 bundle; nothing was imported"), "\(garbage.stderr)")
        #expect(!garbage.stderr.contains("Password"))
        // A key that is not the certificate's, and an expired certificate.
        let mismatch = try importing([home.file("client.pem"), "--key", home.file("server.key")])
        #expect(mismatch.status == 1 && mismatch.stderr.contains("the private key does not belong to the certificate"), "\(mismatch.stderr)")
        let expired = try importing([home.file("expired.pem"), "--key", home.file("client.key")])
        #expect(expired.status == 1 && expired.stderr.contains("the certificate expired on 2020-01-02T00:00:00Z"), "\(expired.stderr)")
        #expect(try identityRows().isEmpty)
        // The right password: imported, with a warning (the test certificate lives one day).
        let p12 = try importing([home.file("client.p12")], password: "p12-pass")
        #expect(p12.status == 0, "\(p12.stderr)")
        #expect(p12.stderr.contains("within 30 days"), "\(p12.stderr)")
        #expect(Set(try identityRows().keys) == ["client.pkcs12", "client.pkcs12.password"])
        // A PEM identity after it replaces all of it: no PKCS#12 password row is left behind.
        let pem = try importing([home.file("client.pem"), "--key", home.file("client.key")])
        #expect(pem.status == 0, "\(pem.stderr)")
        #expect(Set(try identityRows().keys) == ["client.certificate", "client.key"])
        // And back: the PEM rows go.
        #expect(try importing([home.file("client.p12")], password: "p12-pass").status == 0)
        #expect(Set(try identityRows().keys) == ["client.pkcs12", "client.pkcs12.password"])
    }

    /// The mutual-TLS front (`Tests/harness/tls-proxy`) before the emulator, on a free port;
    /// it lives as long as the returned process.
    func tlsFront() throws -> (LiveProcess, UInt16) {
        let port = FreePort.pick()
        let harness = URL(fileURLWithPath: GlewlwydServer.harness).deletingLastPathComponent().appendingPathComponent("tls-proxy").path
        let front = try LiveProcess(harness, [String(port), idp.url, home.file("server.pem"), home.file("server.key"), home.file("ca.pem")],
                                    environment: ["PATH": "/usr/bin:/bin"])
        _ = try front.waitFor("the TLS front") { $0.contains("ready") ? true : nil }
        return (front, port)
    }

    @Test func aClientCertificateThatCannotBeLoadedIsNamedAtRequestTime() throws {
        try makePKI()
        let (front, port) = try tlsFront()
        defer { withExtendedLifetime(front) {} }
        try home.writeConfig(provider("mtls", preset: "12c", options: ", ca_file = \"\(home.file("ca.pem"))\"")
            .replacingOccurrences(of: idp.url, with: "https://127.0.0.1:\(port)"))
        // A bundle stored with a password that does not open it (as an import before these
        // checks could leave): the failure names the local cause, not the server.
        let bundle = try Data(contentsOf: URL(fileURLWithPath: home.file("client.p12")))
        try store().replaceProviderSecrets(prefix: "client.", with: ["client.pkcs12": Secret(bundle.base64EncodedString()),
                                                                      "client.pkcs12.password": Secret("not-the-password")], provider: "mtls")
        let r = try run("login", "mtls", "--password", "--username", "taro@contoso.com", password: "taro-pass-123")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("the client certificate could not be used, so none was sent: the password does not open the PKCS#12 bundle"), "\(r.stderr)")
        #expect(!r.stderr.contains("does the server require a client certificate"), "\(r.stderr)")
    }

    @Test func aClientCertificateOpensAServerThatRequiresOne() throws {
        try makePKI()
        let (front, port) = try tlsFront()
        defer { withExtendedLifetime(front) {} }
        func configure(caFile: Bool) throws {
            try home.writeConfig(provider("mtls", preset: "12c", options: caFile ? ", ca_file = \"\(home.file("ca.pem"))\"" : "")
                .replacingOccurrences(of: idp.url, with: "https://127.0.0.1:\(port)"))
        }
        func login() throws -> BinaryRunner.Result {
            try run("login", "mtls", "--password", "--username", "taro@contoso.com", password: "taro-pass-123")
        }
        try configure(caFile: true)
        // No client certificate yet: the handshake is refused, and the message says why.
        let without = try login()
        #expect(without.status == 1, "\(without.stderr)")
        #expect(without.stderr.contains("the TLS handshake failed") && without.stderr.contains("client certificate"), "\(without.stderr)")
        // Imported (PEM certificate and key): the sign-in goes through.
        let imported = try run("import", "cert", home.file("client.pem"), "--key", home.file("client.key"), "--provider", "mtls")
        #expect(imported.status == 0, "\(imported.stderr)")
        let with = try login()
        #expect(with.status == 0, "\(with.stderr)")
        // `authdeck request` presents the same certificate to the provider's resources (the
        // front refuses any connection without one).
        let echo = try run("request", "mtls", "https://127.0.0.1:\(port)/api/echo")
        #expect(echo.status == 0, "\(echo.stderr)")
        #expect(echo.stdout.contains("\"x-oauth-identity-domain-name\":\"DefaultDomain\""), "\(echo.stdout)")
        // The same from a PKCS#12 bundle with its password.
        var r = runner
        r.environment["AUTHDECK_PASSWORD"] = "p12-pass"
        #expect(try r.run(["import", "cert", home.file("client.p12"), "--provider", "mtls"]).status == 0)
        #expect(try login().status == 0)
        // Without the test CA the server's certificate is not trusted: verification fails.
        try configure(caFile: false)
        let untrusted = try login()
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("TLS certificate not trusted"), "\(untrusted.stderr)")
        // The key never lands in the store in clear.
        let db = FileManager.default.contents(atPath: home.file("data/authdeck/authdeck.db")) ?? Data()
        let wal = FileManager.default.contents(atPath: home.file("data/authdeck/authdeck.db-wal")) ?? Data()
        let keyBody = try String(contentsOfFile: home.file("client.key"), encoding: .utf8).split(separator: "\n")[1]
        #expect(db.range(of: Data(keyBody.utf8)) == nil && wal.range(of: Data(keyBody.utf8)) == nil)
    }
}
