import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// "`--json` everywhere (but `exec`)" (README), as a script author meets it in the real binary
/// (issue 39, round 3, item 1): every command that answers a script has a JSON answer, and a
/// failure under `--json` is a JSON object on stdout whichever command failed. On the fixture
/// store and config of `ScriptOutputTests`.
extension ScriptOutputTests {
    @Test func cookiesAsJSONCarryNameValueDomainPathExpiryAndFlags() throws {
        let r = try run("cookies", "sp/0000a012", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        #expect(o["account"] as? String == "sp/0000a012" && o["provider"] as? String == "sp", "\(o)")
        let cookies = try #require(o["cookies"] as? [[String: Any]], "\(o)")
        let stored = try #require(fixture.accounts.first { $0.account.id == "sp/0000a012" }).credentials.cookies
        #expect(cookies.count == 2)
        for c in stored {
            let j = try #require(cookies.first { $0["name"] as? String == c.name }, "\(cookies)")
            #expect(j["value"] as? String == c.value.exposedValue)
            #expect(j["domain"] as? String == c.domain && j["path"] as? String == c.path)
            #expect(j["expires_at"] as? String == c.expiresAt?.iso8601)
            #expect(j["secure"] as? Bool == c.secure && j["http_only"] as? Bool == c.httpOnly)
            #expect(j["include_subdomains"] as? Bool == c.domain.hasPrefix("."))
        }
        #expect(try run("cookies", "sp/0000a012", "--json", "--format", "header").status == 2)
    }

    /// `token prod --json` exited 3 with text alone while `refresh --all --json` printed JSON:
    /// now every failure under --json is `{error_class, code, remedy, exit_status}` on stdout,
    /// the sentence still on stderr.
    @Test func aFailureUnderJSONIsAJSONObjectOnStdoutForEveryCommand() throws {
        let signIn = try run("token", "prod", "--json")
        #expect(signIn.status == 3, "\(signIn.stdout) \(signIn.stderr)")
        let e = try jsonObject(signIn.stdout)
        #expect(e["error_class"] as? String == "needs_interaction" && e["exit_status"] as? Int == 3, "\(e)")
        #expect(e["code"] is String)
        let remedy = try #require(e["remedy"] as? String)
        #expect(!remedy.isEmpty && signIn.stderr.contains(remedy), "\(remedy) / \(signIn.stderr)")

        let unknown = try run("cookies", "nobody-here", "--json")
        #expect(unknown.status == 2)
        let u = try jsonObject(unknown.stdout)
        #expect(u["error_class"] as? String == "usage" && u["code"] as? String == "usage" && u["exit_status"] as? Int == 2, "\(u)")
        #expect((u["remedy"] as? String)?.contains("no account matches \"nobody-here\"") == true, "\(u)")

        // A usage error ArgumentParser finds before the command runs.
        let parse = try run("watch", "--json")
        #expect(parse.status == 2)
        #expect((try jsonObject(parse.stdout))["remedy"] as? String == "--json prints one pass's outcomes: use it with --once", "\(parse.stdout)")
        // Without --json, stdout stays empty.
        let plain = try run("token", "prod")
        #expect(plain.status == 3 && plain.stdout.isEmpty)
    }

    @Test func keySaysItsSourceAsJSON() throws {
        let r = try run("key", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        #expect(o["source"] as? String == "file" && o["store_exists"] as? Bool == true, "\(o)")
        #expect(o["key_file"] as? String == dir.file("data/authdeck/key") && o["key_file_exists"] as? Bool == true, "\(o)")
        #expect(o["key_source"] as? String == store.keySource)
        let text = try run("key")
        #expect(text.status == 0 && text.stdout.contains("key source: \(store.keySource)"), "\(text.stdout) \(text.stderr)")
    }

    @Test func setupGitSaysTheURLsItConfiguredAsJSON() throws {
        let r = try run("setup-git", "https://dev.azure.com/contoso", "https://git.example.com", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        #expect(o["action"] as? String == "configured", "\(o)")
        #expect(o["urls"] as? [String] == ["https://dev.azure.com/contoso", "https://git.example.com"], "\(o)")
        #expect(o["use_http_path"] as? [String] == ["https://dev.azure.com/contoso"], "\(o)")
        let helper = try #require(o["helper"] as? String)
        #expect(helper.hasSuffix(" git-credential"))
        // What git's config now holds is what the JSON said.
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "config", "--global", "--get", "credential.https://git.example.com.helper"]
        git.environment = runner.environment
        let out = Pipe()
        git.standardOutput = out
        try git.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        #expect(said.trimmingCharacters(in: .newlines) == helper)
        let removed = try jsonObject(try run("setup-git", "https://git.example.com", "--remove", "--json").stdout)
        #expect(removed["action"] as? String == "removed" && removed["helper"] == nil, "\(removed)")
    }

    @Test func importCookiesSaysWhatWasImportedAndLeftOutAsJSON() throws {
        let later = SystemClock().now() + .hours(4), earlier = SystemClock().now() - .hours(4)
        let jar = """
            # Netscape HTTP Cookie File
            #HttpOnly_contoso.sharepoint.com\tFALSE\t/\tTRUE\t\(later.secondsSinceEpoch)\tFedAuth\tfed-value-1
            .sharepoint.com\tTRUE\t/\tTRUE\t\(earlier.secondsSinceEpoch)\trtFa\told-value
            other.example.com\tFALSE\t/\tTRUE\t\(later.secondsSinceEpoch)\tsid\tother-value

            """
        let file = dir.file("jar.txt")
        try jar.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try run("import", "cookies", file, "--provider", "sp", "--username", "hanako@contoso.com", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        #expect(o["provider"] as? String == "sp" && o["site"] as? String == "contoso.sharepoint.com", "\(o)")
        #expect((o["account"] as? String)?.hasPrefix("sp/") == true)
        #expect(o["imported"] as? [String] == ["FedAuth"], "\(o)")
        let left = try #require(o["left_out"] as? [[String: Any]], "\(o)")
        #expect(left.contains { $0["name"] as? String == "rtFa" && $0["reason"] as? String == "expired" }, "\(left)")
        #expect(left.contains { $0["name"] == nil && $0["count"] as? Int == 1 && $0["reason"] as? String == "other sites" }, "\(left)")
        #expect(!r.stdout.contains("fed-value-1") && !r.stdout.contains("other-value"), "values are never printed here")
    }

    /// config import-url --json says the provider written; providers then lists no flow for it
    /// while it is not ready to sign in (item 4), in JSON and in the table.
    @Test func importURLAsJSONAndAProviderNotReadyListsNoFlows() throws {
        let r = try run("config", "import-url", "oa://settings?AuthServerType::=OAuth2.0&OAMOAuthServiceEndpoint::=https://host123.us.example.com:14100&ApplicationName::=OAuthApp", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        #expect(o["id"] as? String == "oauthapp" && o["kind"] as? String == "oam" && o["config"] as? String == configPath, "\(o)")
        #expect(o["client_id"] == nil && (o["notes"] as? [String])?.first?.contains("OAuthClientID") == true, "\(o)")
        #expect((o["endpoints"] as? [String: String])?.values.contains { $0.contains("host123.us.example.com") } == true, "\(o)")

        let json = try run("providers", "--json")
        let rows = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json.stdout)")
        let row = try #require(rows.first { $0["id"] as? String == "oauthapp" })
        #expect(row["problem"] is String, "\(row)")
        #expect(row["flows"] as? [String] == [], "\(row)")
        #expect(row["silent_renewal"] as? Bool == false, "\(row)")
        let table = try run("providers").stdout
        let line = try #require(table.split(separator: "\n").first { $0.hasPrefix("oauthapp ") }, "\(table)")
        #expect(!line.contains("device") && !line.contains("password") && !line.contains("yes") && line.contains("—"), "\(line)")
        #expect(table.contains("oauthapp: not ready to sign in: ") && table.contains("until then no flow can run and nothing renews"), "\(table)")
    }

    /// `watch --once --json` prints the pass's outcome per account; `--verbose` ends the pass
    /// with what it did (item 3). The fixture's Azure AD authority is a closed port: renewals
    /// fail as transient, and accounts that only a person can mend need a sign-in.
    @Test func watchOnceSaysWhatThePassDid() throws {
        let r = try run("watch", "--once", "--json", "--verbose")
        #expect(r.status == 0, "\(r.stderr)")
        let o = try jsonObject(r.stdout)
        let accounts = try #require(o["accounts"] as? [[String: Any]], "\(o)")
        let summary = try #require(o["summary"] as? String)
        #expect(!accounts.isEmpty, "\(o)")
        let outcomes = Set(accounts.compactMap { $0["outcome"] as? String })
        #expect(outcomes.isSubset(of: ["renewed", "needs_sign_in", "expiring", "not_renewed", "deferred"]), "\(outcomes)")
        #expect(outcomes.contains("needs_sign_in"), "\(accounts)")
        let signIns = accounts.filter { $0["outcome"] as? String == "needs_sign_in" }
        #expect(signIns.allSatisfy { ($0["remedy"] as? String)?.isEmpty == false }, "\(signIns)")
        #expect(summary.contains("\(signIns.count) need\(signIns.count == 1 ? "s" : "") a sign-in"), "\(summary)")
        #expect(r.stderr.contains("pass done: \(summary)"), "\(r.stderr)")

        // A store where nothing is due says so.
        let calm = TempDirectory("authdeck-json-calm")
        let quiet = BinaryRunner.authdeck(home: calm)
        let calmStore = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: quiet.environment), clock: SystemClock())
        try calmStore.insert(try #require(fixture.accounts.first { $0.account.id == "sp/0000a012" }))
        try FileManager.default.createDirectory(atPath: calm.file("config/authdeck"), withIntermediateDirectories: true)
        try DeckFixture.configTOML.write(toFile: calm.file("config/authdeck/config.toml"), atomically: true, encoding: .utf8)
        let nothing = try quiet.run(["watch", "--once", "--verbose"])
        #expect(nothing.status == 0 && nothing.stderr.contains("pass done: nothing due"), "\(nothing.stderr)")
    }

    @Test func theCredentialHelpersSayWhyTheyHaveNoJSON() throws {
        for helper in ["git-credential", "kube-credential", "docker-credential"] {
            let help = try run(helper, "--help")
            #expect(help.stdout.contains("There is no --json: this helper speaks"), "\(helper): \(help.stdout)")
        }
    }
}
