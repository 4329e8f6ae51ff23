import Testing
import Foundation
import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckHTTP
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// The commands that may reach a provider — `token`, `refresh`, `cookies`, `request` — run
/// in-process with the real adapters over a scripted network (`NetworkPorts`), a real store in
/// a temporary home, and the config given through the context's config port.
struct CommandNetworkSeamTests {
    let seam = SeamHome()

    /// An Azure AD token answer with a rotated refresh token.
    static let renewed = #"{"token_type":"Bearer","scope":"openid User.Read","expires_in":3600,"access_token":"at-renewed-Zq8","refresh_token":"rt-renewed-Zq8"}"#

    /// A valid token is printed without a request; an expired one is renewed over the given
    /// network and the new one printed; `--json` names the account.
    @Test func tokenPrintsAndRenewsOverTheGivenNetwork() async throws {
        let store = try seam.seed()
        let http = ScriptedHTTPClient()
        http.on("POST", SeamHome.workTokenURL) { _ in ScriptedHTTPClient.json(200, Self.renewed) }
        let config = try seam.config(SeamHome.scriptedAzureTOML)
        let valid = CapturedOutput()
        try await TokenCommand.parse(["work/0000a001"]).run(in: seam.context(valid, http: http, config: config))
        #expect(valid.out == DeckFixture(now: seam.clock.now()).validTokenValue + "\n")
        #expect(http.requests.isEmpty)
        let renewed = CapturedOutput()
        try await TokenCommand.parse(["hanako@contoso.com", "--json"]).run(in: seam.context(renewed, http: http, config: config))
        let json = try #require(JSONSerialization.jsonObject(with: Data(renewed.out.utf8)) as? [String: Any], "\(renewed.out)")
        #expect(json["access_token"] as? String == "at-renewed-Zq8" && json["account"] as? String == "work/0000a003")
        #expect(json["expires_in_seconds"] as? Int == 3600)
        #expect(ScriptedHTTPClient.form(try #require(http.requests.last))["refresh_token"]?.hasPrefix("fixture-secret-rt-expired") == true)
        #expect(try store.account(id: "work/0000a003")?.credentials.refreshToken?.value.exposedValue == "rt-renewed-Zq8")
        // A cookie account is the wrong command (exit 2), decided before any request.
        let wrong = await #expect(throws: CLIError.self) {
            try await TokenCommand.parse(["sp/0000a012"]).run(in: seam.context(CapturedOutput(), http: http, config: config))
        }
        #expect(wrong?.status == ExitStatus.usage && http.requests.count == 1)
    }

    /// `refresh ACCOUNT` renews over the given network and says until when; a 503 is said on
    /// stderr, exits 4 and downgrades nothing.
    @Test func refreshSaysEachOutcome() async throws {
        let store = try seam.seed()
        let http = ScriptedHTTPClient()
        http.on("POST", SeamHome.workTokenURL) { _ in ScriptedHTTPClient.json(200, Self.renewed) }
        http.on("POST", SeamHome.workTokenURL) { _ in ScriptedHTTPClient.json(503, #"{"error":"temporarily_unavailable"}"#) }
        let config = try seam.config(SeamHome.scriptedAzureTOML)
        let ok = CapturedOutput()
        try await RefreshCommand.parse(["work/0000a003"]).run(in: seam.context(ok, http: http, config: config))
        #expect(ok.out == "renewed work/0000a003: valid until \((seam.clock.now() + .hours(1)).iso8601)\n", "\(ok.out)\(ok.err)")
        let before = try store.account(id: "work/0000a002")
        let down = CapturedOutput()
        let exit = await #expect(throws: ExitCode.self) {
            try await RefreshCommand.parse(["work/0000a002"]).run(in: seam.context(down, http: http, config: config))
        }
        #expect(exit?.rawValue == ExitStatus.transient)
        #expect(down.out.isEmpty && down.err.hasPrefix("authdeck: work/0000a002: "), "\(down.err)")
        let after = try #require(try store.account(id: "work/0000a002"))
        #expect(after.credentials == before?.credentials && after.account.lastError?.errorClass != .needsInteraction)
    }

    /// `cookies` prints a jar or a header line from the store, with no request while the
    /// cookies are fresh; a token account is the wrong command (exit 2).
    @Test func cookiesPrintsTheJarAndTheHeader() async throws {
        _ = try seam.seed()
        let http = ScriptedHTTPClient()
        let fixture = DeckFixture(now: seam.clock.now())
        let fedAuth = try #require(fixture.secrets.first { $0.hasPrefix("fixture-secret-fedauth") })
        let jar = CapturedOutput()
        try await CookiesCommand.parse(["sp/0000a012"]).run(in: seam.context(jar, http: http))
        #expect(jar.out.contains("\tFedAuth\t\(fedAuth)\n") && jar.out.contains("\trtFa\t"), "\(jar.out)")
        let header = CapturedOutput()
        try await CookiesCommand.parse(["sp/0000a012", "--format", "header"]).run(in: seam.context(header, http: http))
        #expect(header.out.hasPrefix("Cookie: ") && header.out.contains("FedAuth=\(fedAuth)") && header.out.contains("rtFa="), "\(header.out)")
        #expect(http.requests.isEmpty)
        let wrong = await #expect(throws: CLIError.self) {
            try await CookiesCommand.parse(["work/0000a001"]).run(in: seam.context(CapturedOutput(), http: http))
        }
        #expect(wrong?.status == ExitStatus.usage && wrong?.message.contains("it holds tokens, not cookies") == true)
    }

    /// `request -o FILE -i` sends the account's token over the given network, writes the body
    /// to the file and the status and headers (a Set-Cookie value hidden) to stderr; a 500
    /// exits 4 and leaves the file as it was.
    @Test func requestSendsTheTokenAndKeepsTheFileOnAnError() async throws {
        _ = try seam.seed()
        let http = ScriptedHTTPClient()
        http.on("GET", "https://api.test/me") { _ in
            HTTPResponse(status: 200, headers: [HTTPHeader("Set-Cookie", "s=secret-cookie-Zq8; Path=/")], body: Array("{\"me\":1}".utf8))
        }
        http.on("GET", "https://api.test/me") { _ in ScriptedHTTPClient.json(500, "{}") }
        let config = try seam.config(SeamHome.scriptedAzureTOML)
        let file = seam.home.file("me.json")
        let out = CapturedOutput()
        try await RequestCommand.parse(["work/0000a001", "https://api.test/me", "-o", file, "-i"]).run(in: seam.context(out, http: http, config: config))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\"me\":1}")
        #expect(out.err.contains("HTTP 200\n") && out.err.contains("Set-Cookie: s=<hidden>; Path=/") && !out.err.contains("secret-cookie"), "\(out.err)")
        let sent = try #require(http.requests.first)
        #expect(sent.headers.contains { $0.name == "Authorization" && $0.value == "Bearer " + DeckFixture(now: seam.clock.now()).validTokenValue })
        let failed = CapturedOutput()
        let exit = await #expect(throws: ExitCode.self) {
            try await RequestCommand.parse(["work/0000a001", "https://api.test/me", "-o", file]).run(in: seam.context(failed, http: http, config: config))
        }
        #expect(exit?.rawValue == ExitStatus.transient)
        #expect(failed.err == "authdeck: https://api.test/me answered HTTP 500; \(file) was left as it was\n", "\(failed.err)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\"me\":1}")
    }

    /// `watch --once --json` renews what is due over the given network, runs the `on_renewed`
    /// hook (its failure a warning through the command's output) and prints the pass's outcomes.
    @Test func watchOnceRenewsWhatIsDueAndRunsTheHook() async throws {
        let store = try seam.seed()
        let http = ScriptedHTTPClient()
        http.on("POST", SeamHome.workTokenURL) { _ in ScriptedHTTPClient.json(200, Self.renewed) }
        let heard = seam.home.file("hook.log")
        let config = try seam.config(SeamHome.scriptedAzureTOML + """

            [hooks]
            on_renewed = "echo \\"$AUTHDECK_EVENT $AUTHDECK_ACCOUNT\\" >> \(heard); exit 3"
            """)
        let output = CapturedOutput()
        try await WatchCommand.parse(["--once", "--json"]).run(in: seam.context(output, http: http, config: config))
        let json = try #require(JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any], "\(output.out)\(output.err)")
        let outcomes = try #require(json["accounts"] as? [[String: Any]])
        let hanako = try #require(outcomes.first { $0["account"] as? String == "work/0000a003" }, "\(outcomes)")
        #expect(hanako["outcome"] as? String == "renewed" && hanako["expires_at"] as? String == (seam.clock.now() + .hours(1)).iso8601)
        #expect(try store.account(id: "work/0000a003")?.credentials.refreshToken?.value.exposedValue == "rt-renewed-Zq8")
        #expect(try String(contentsOfFile: heard, encoding: .utf8).contains("renewed work/0000a003\n"))
        let location = StoreLocation.resolve(storeFlag: nil, environment: seam.environment)
        #expect(output.err.contains("authdeck watch: watching \(location.databasePath)\n"), "\(output.err)")
        #expect(output.err.contains("authdeck: warning: hook for renewed (work/0000a003) exited with status 3\n"), "\(output.err)")
    }
}
