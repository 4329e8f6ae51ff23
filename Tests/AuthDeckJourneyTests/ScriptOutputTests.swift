import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// What a script author reads from the real `authdeck` binary (issue 39): one vocabulary in
/// JSON, durations that say what was asked, errors that name what they are about.
@Suite struct ScriptOutputTests {
    let dir = TempDirectory("authdeck-script")
    let fixture: DeckFixture
    let runner: BinaryRunner
    let store: DeckStore
    var configPath: String { dir.file("config/authdeck/config.toml") }

    /// Seeds the fixture accounts (relative to the real clock, as the binary uses it).
    init() throws {
        runner = BinaryRunner.authdeck(home: dir)
        fixture = DeckFixture(now: SystemClock().now())
        store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: runner.environment), clock: SystemClock())
        for stored in fixture.accounts { try store.insert(stored) }
        try FileManager.default.createDirectory(atPath: dir.file("config/authdeck"), withIntermediateDirectories: true)
        try DeckFixture.configTOML.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    func run(_ args: String...) throws -> BinaryRunner.Result { try runner.run(args) }

    func jsonArray(_ text: String) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    func jsonObject(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// Item 13: a failed renewal's event detail said `needsInteraction` in `events --json`,
    /// where authdeck(1) documents `needs_interaction`; an event written that way by an
    /// earlier version is printed in the documented spelling too.
    @Test func eventDetailsUseTheDocumentedErrorClassSpelling() throws {
        let now = SystemClock().now()
        let id = "work/0000beef"
        try store.insert(StoredAccount(
            account: Account(id: id, providerId: "work", subject: "s-beef", username: "beef@example.jp", createdAt: now - .hours(2),
                             lastSignInAt: now - .hours(2)),
            credentials: Credentials(accessTokens: [AccessToken(id: "at-beef", value: Secret("at-beef"), scopes: ["openid"],
                                                                obtainedAt: now - .hours(2), expiresAt: now - .hours(1))])))
        #expect(try run("refresh", id).status == 3)
        try store.append(DeckEvent(at: now, kind: .refreshFailed, accountId: id, providerId: "work",
                                   detail: "needsInteraction AADSTS70008: the grant expired or was revoked — sign in again"))
        let r = try run("events", "--json", "--account", id)
        #expect(r.status == 0, "\(r.stderr)")
        let details = try jsonArray(r.stdout).filter { $0["kind"] as? String == "refresh_failed" }.compactMap { $0["detail"] as? String }
        #expect(details.count == 2, "\(r.stdout)")
        #expect(details.contains { $0.hasPrefix("needs_interaction no_refresh_token: ") }, "\(details)")
        #expect(details.contains { $0.hasPrefix("needs_interaction AADSTS70008: ") }, "\(details)")
        #expect(!r.stdout.contains("needsInteraction"), "\(r.stdout)")
        // The table says both as sentences, whichever spelling the row holds.
        let table = try run("events", "--account", id).stdout
        #expect(table.contains("renewal failed: the grant expired or was revoked — sign in again (AADSTS70008)"), "\(table)")
        #expect(!table.contains("needs_interaction") && !table.contains("needsInteraction"), "\(table)")
    }

    /// Item 12: `prune --older-than 1m` read as one minute and said "unused for 0 days" of
    /// accounts used minutes ago. A span under an hour needs --force; w, d and h are read; the
    /// reason says the span that was asked.
    @Test func pruneOlderThanSaysWhatWasAskedAndRefusesMinutes() throws {
        let minute = try run("prune", "--dry-run", "--older-than", "1m")
        #expect(minute.status == 2, "\(minute.stdout) \(minute.stderr)")
        #expect(minute.stderr.contains("--older-than 1m is 1m 00s (m is minutes; a month is 30d)"), "\(minute.stderr)")
        #expect(minute.stderr.contains("--force"), "\(minute.stderr)")
        #expect(minute.stdout.isEmpty)
        let forced = try run("prune", "--dry-run", "--older-than", "1m", "--force", "--reason", "unused", "--json")
        #expect(forced.status == 0, "\(forced.stderr)")
        let recent = try jsonObject(forced.stdout)["pruned"] as? [[String: Any]] ?? []
        let taro = try #require(recent.first { $0["id"] as? String == "work/0000a001" }, "\(forced.stdout)")
        #expect(taro["detail"] as? String == "unused for less than a day (older than 1m)", "\(taro)")
        for (span, said) in [("2w", "14d"), ("90d", "90d"), ("12h", "12h")] {
            let r = try run("prune", "--dry-run", "--older-than", span, "--reason", "unused", "--json")
            #expect(r.status == 0, "\(span): \(r.stderr)")
            let pruned = try jsonObject(r.stdout)["pruned"] as? [[String: Any]] ?? []
            let old = try #require(pruned.first { $0["id"] as? String == "work/0000a013" }, "\(span): \(r.stdout)")
            #expect(old["detail"] as? String == "unused for 100 days (older than \(said))", "\(span): \(old)")
        }
        #expect(try run("prune", "--dry-run", "--force").status == 2)
    }

    /// Item 9: `token --json` gives the token with its type, expiry, scopes and account (as
    /// `az account get-access-token`); the front hands `--json` to authdeck-full wherever it
    /// stands. `use --json` lists the defaults; `exec --help` says why it has no `--json`.
    @Test func tokenAndUseSpeakJSONAndExecSaysWhyNot() throws {
        for args in [["token", "work/0000a001", "--json"], ["token", "--json", "work/0000a001"]] {
            let r = try runner.run(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            let o = try jsonObject(r.stdout)
            #expect(o["access_token"] as? String == fixture.validTokenValue, "\(args)")
            #expect(o["token_type"] as? String == "Bearer")
            #expect(o["scopes"] as? [String] == ["User.Read", "openid"], "\(o)")
            #expect(o["account"] as? String == "work/0000a001" && o["provider"] as? String == "work")
            #expect(o["username"] as? String == "taro@contoso.com" && o["realm"] as? String == DeckFixture.prodTenant, "\(o)")
            #expect(o["expires_at"] as? String == (fixture.now + .hours(2)).iso8601, "\(o)")
            let left = try #require(o["expires_in_seconds"] as? Int, "\(o)")
            #expect(left > 7000 && left <= 7200, "\(left)")
        }
        // The plain form is still the token alone.
        #expect(try run("token", "work/0000a001").stdout == fixture.validTokenValue + "\n")

        #expect(try jsonArray(try run("use", "--json").stdout).isEmpty)
        let set = try run("use", "work/0000a001", "--json")
        #expect(set.status == 0, "\(set.stderr)")
        let defaults = try jsonArray(set.stdout)
        #expect(defaults.count == 1 && defaults[0]["provider"] as? String == "work" && defaults[0]["account"] as? String == "work/0000a001"
                && defaults[0]["username"] as? String == "taro@contoso.com", "\(set.stdout)")
        #expect(try jsonArray(try run("use", "--json").stdout).count == 1)
        #expect(try jsonArray(try run("use", "--clear", "work", "--json").stdout).isEmpty)

        let help = try run("exec", "--help")
        #expect(help.stdout.contains("There is no --json"), "\(help.stdout)")
    }

    /// Seeds an account whose access token (valid two hours) is `value`; returns its id.
    func seedAccount(_ label: String, username: String, token value: String) throws -> String {
        let now = SystemClock().now()
        let id = "work/0000\(label)"
        try store.insert(StoredAccount(
            account: Account(id: id, providerId: "work", subject: "s-\(label)", username: username, createdAt: now - .hours(1),
                             lastSignInAt: now - .hours(1)),
            credentials: Credentials(accessTokens: [AccessToken(id: "at-\(label)", value: Secret(value), scopes: ["openid"],
                                                                obtainedAt: now - .hours(1), expiresAt: now + .hours(2))])))
        return id
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Asked for in issue 39: `token --format xoauth2` prints the IMAP/SMTP XOAUTH2 string
    /// (base64 of user=…^Aauth=Bearer …^A^A); an unknown format is exit 2 naming it, and the
    /// string has no --json form.
    @Test func tokenFormatXOAuth2PrintsTheSASLString() throws {
        let r = try run("token", "work/0000a001", "--format", "xoauth2")
        #expect(r.status == 0, "\(r.stderr)")
        let decoded = try #require(Data(base64Encoded: r.stdout.trimmingCharacters(in: .newlines)), "\(r.stdout)")
        #expect(String(decoding: decoded, as: UTF8.self) == "user=taro@contoso.com\u{1}auth=Bearer \(fixture.validTokenValue)\u{1}\u{1}")
        #expect(r.stdout.hasSuffix("\n") && !r.stdout.contains(fixture.validTokenValue))
        #expect(try run("token", "work/0000a001", "--format", "token").stdout == fixture.validTokenValue + "\n")

        let odd = try run("token", "work/0000a001", "--format", "pizauth")
        #expect(odd.status == 2 && odd.stderr.contains("--format pizauth is not a token format"), "\(odd.stderr)")
        #expect(odd.stdout.isEmpty)
        let both = try run("token", "work/0000a001", "--format", "xoauth2", "--json")
        // Under --json the refusal is the JSON error object, never the token or the string.
        let refusal = try jsonObject(both.stdout)
        #expect(both.status == 2 && refusal["error_class"] as? String == "usage", "\(both.stderr)")
        #expect(!both.stdout.contains(fixture.validTokenValue))
        #expect(try run("token", "--help").stdout.contains("xoauth2"))
    }

    /// Asked for in issue 39: `token --decode` prints a JWT access token's header and claims
    /// as JSON (the token itself not printed), says on stderr and in a field that the
    /// signature is not verified, keeps claim text inert, and names an opaque token as not a JWT.
    @Test func tokenDecodeShowsTheClaimsUnverifiedAndInert() throws {
        let exp = Int(SystemClock().now().secondsSinceEpoch) + 7200
        let header = Self.base64URL(#"{"alg":"RS256","kid":"k1","typ":"JWT"}"#)
        let claims = Self.base64URL(#"{"aud":["api://mail","graph"],"exp":\#(exp),"name":"Eve\u001b]0;owned\u0007","scp":"Mail.Read","sub":"s-jwt","xms":true}"#)
        let jwt = header + "." + claims + "." + Self.base64URL("not-a-real-signature")
        let id = try seedAccount("c0de", username: "jwt@example.jp", token: jwt)

        let r = try run("token", id, "--decode")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains(jwt) && !r.stdout.contains(claims), "\(r.stdout)")
        #expect(r.stderr.contains("signature is NOT verified"), "\(r.stderr)")
        #expect(!r.stdout.contains("\u{1b}") && !r.stdout.contains("\u{7}") && !r.stdout.contains("\\u001b"), "\(r.stdout)")
        let o = try jsonObject(r.stdout)
        #expect(o["signature_verified"] as? Bool == false, "\(o)")
        let h = try #require(o["header"] as? [String: Any], "\(o)")
        #expect(h["alg"] as? String == "RS256" && h["kid"] as? String == "k1", "\(h)")
        let c = try #require(o["claims"] as? [String: Any], "\(o)")
        #expect(c["sub"] as? String == "s-jwt" && c["scp"] as? String == "Mail.Read" && c["aud"] as? [String] == ["api://mail", "graph"], "\(c)")
        #expect(c["exp"] as? Int == exp && c["xms"] as? Bool == true, "\(c)")
        #expect(c["name"] as? String == "Eve␛]0;owned␇", "\(c)")
        // The project's JSON: pretty, sorted keys, slashes unescaped.
        #expect(r.stdout.contains("\"api://mail\"") && r.stdout.contains("\n  \"claims\" : {"), "\(r.stdout)")

        let opaque = try run("token", "work/0000a001", "--decode")
        #expect(opaque.status == 1, "\(opaque.stdout) \(opaque.stderr)")
        #expect(opaque.stderr.contains("is not a JWT") && opaque.stdout.isEmpty, "\(opaque.stderr)")
        #expect(!opaque.stderr.contains(fixture.validTokenValue), "\(opaque.stderr)")
        #expect(try run("token", id, "--decode", "--json").status == 2)
    }

    /// Item 15: `--config /nonexistent` said only "no such file"; it names the config file.
    @Test func aMissingConfigFileIsNamedAsTheConfigFile() throws {
        let path = dir.file("nowhere/config.toml")
        for (args, env) in [(["accounts", "--config", path], [String: String]()), (["accounts"], ["AUTHDECK_CONFIG": path])] {
            let r = try runner.run(args, env: env)
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.contains("\(path): no such config file (named by --config or AUTHDECK_CONFIG)"), "\(r.stderr)")
        }
    }
}
