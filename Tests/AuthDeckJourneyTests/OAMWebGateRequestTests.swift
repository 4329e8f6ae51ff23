import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform
#if canImport(Glibc)
import Glibc
#endif

/// `authdeck request` through an 11g R2 WebGate for a Mobile and Social account (issue 41,
/// WebGate), with the real binary, libcurl over loopback and the emulator, which records on its
/// own side what each WebGate was shown and what the REST service was asked (PROVIDERS.md §5).
@Suite(.serialized) struct OAMWebGateRequestTests: MobileSocialSuite {
    let idp: EmulatorProcess
    let home = TempDirectory("authdeck-webgate")
    let runner: BinaryRunner

    init() throws {
        idp = try EmulatorProcess()
        runner = BinaryRunner.authdeck(home: home, [:])
        try configure()
    }

    /// Signed in with the password typed once.
    func signIn() throws {
        let r = try login()
        try #require(r.status == 0, "\(r.stderr)")
    }

    func request(_ path: String) throws -> BinaryRunner.Result { try run("request", "ms", idp.url + path) }

    /// The WebGate tokens the account holds, by realm.
    func held() throws -> [String: AccessToken] {
        Dictionary(WebGateRealm.held(in: try #require(try account()).credentials).map { ($0.gate.realm, $0.token) }, uniquingKeysWith: { a, _ in a })
    }

    func calls(_ operation: String) throws -> [[String: String]] {
        try calls().filter { $0["operation"] == operation }
    }

    /// What WebGate `gate` was shown: counts by the WebGate each token was minted for.
    func presented(to gate: String) throws -> [String: Int] {
        (try report()["presented"] as? [String: [String: Int]])?[gate] ?? [:]
    }

    static let hr = "WebGateHR:2 /webgate/hr", payroll = "WebGatePayroll:2 /webgate/payroll"

    @Test func aPasswordTypedOnceThenTheRememberedOneAnswersTheChallengeSilently() throws {
        try configure(", remember_credentials_allowed = true, remember_credentials_default = true")
        try signIn()
        let first = try request("/webgate/hr/employees")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains(#""webgate":"WebGateHR""#) || first.stdout.contains(#""webgate" : "WebGateHR""#), "\(first.stdout)")
        // The access operation as PROVIDERS.md shapes it: the user token, the challenge's
        // request context and the full resource URL, with the SDK's User-Agent.
        let access = try calls("access")
        try #require(access.count == 1, "\(access)")
        #expect(access[0]["x-idaas-rest-subject-type"] == "TOKEN" && access[0]["x-idaas-rest-subject-value"] == "present")
        #expect(access[0]["x-idaas-rest-new-token-type-to-create"] == "ACCESSTOKEN")
        #expect(access[0]["x-idaas-rest-application-context"]?.hasPrefix("oamctx") == true, "\(access[0])")
        #expect(access[0]["x-idaas-rest-application-resource"] == idp.url + "/webgate/hr/employees")
        #expect(access[0]["user_agent"]?.hasPrefix("OIC") == true)
        // Kept sealed with the account, under its realm and origin; reused by the next request.
        let kept = try #require(try held()[Self.hr])
        #expect(kept.tokenType == "OAM-Auth" && kept.requestedScopes == [WebGateRealm(realm: Self.hr, origin: idp.url).scope])
        #expect(try request("/webgate/hr/employees/7").status == 0)
        #expect(try calls("access").count == 1, "the kept token was used")
        #expect(try presented(to: "WebGateHR") == ["WebGateHR": 2])
        #expect(try held()[Self.hr] == kept)

        // The server ends the session: the WebGate refuses the kept token, the access operation
        // the user token; the remembered password signs in again with no one asked.
        #expect(try idp.admin("oam/rest", #"{"action":"revoke-user-tokens"}"#).contains("1"))
        let again = try request("/webgate/hr/employees")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try calls("authenticate").count == 2, "signed in again silently with the remembered password")
        #expect(try calls("access").count == 3, "refused once with the old user token, then issued")
        let renewed = try #require(try account())
        #expect(renewed.account.lastError == nil)
        #expect(try held()[Self.hr].map { $0 != kept } == true)
        #expect(try run("accounts", "--json").stdout.contains("\"state\" : \"signed_in\""))
    }

    @Test func aSecondRealmGetsItsOwnTokenAndTheFirstsIsNeverSentThere() throws {
        try signIn()
        #expect(try request("/webgate/hr/a").status == 0)
        let pay = try request("/webgate/payroll/b")
        #expect(pay.status == 0, "\(pay.stderr)")
        #expect(try calls("access").count == 2)
        let tokens = try held()
        #expect(Set(tokens.keys) == [Self.hr, Self.payroll])
        #expect(try request("/webgate/payroll/c").status == 0)
        #expect(try request("/webgate/hr/d").status == 0)
        #expect(try calls("access").count == 2, "each realm's kept token reused")
        // The emulator's record: each WebGate saw only tokens minted for it.
        #expect(try presented(to: "WebGatePayroll") == ["WebGatePayroll": 2])
        #expect(try presented(to: "WebGateHR") == ["WebGateHR": 2])

        // A challenge from another origin (a redirect to localhost) is the answer, not obeyed:
        // no token goes there and none is asked for.
        let other = idp.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        try #require(other != idp.url)
        let bounced = try run("request", "ms", "\(idp.url)/api/redirect?to=\(other)/webgate/hr/x")
        #expect(bounced.status == 1, "the 401 is the answer: \(bounced.stderr)")
        #expect(try presented(to: "WebGateHR") == ["WebGateHR": 2] && (try calls("access").count) == 2)

        // exec shows them (realm, origin, no expiry); `token` still hands out the user token.
        let user = try #require(try account()?.credentials.accessTokens.first { $0.tokenType == "USERTOKEN" })
        let exec = try run("exec", "ms", "--", "sh", "-c", #"printf '%s\n%s' "$AUTHDECK_TOKEN_MS" "$AUTHDECK_WEBGATE_TOKENS_MS""#)
        #expect(exec.status == 0, "\(exec.stderr)")
        let lines = exec.stdout.split(separator: "\n", maxSplits: 1).map(String.init)
        try #require(lines.count == 2, "\(exec.stdout)")
        #expect(lines[0] == user.value.exposedValue)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [[String: String]])
        #expect(Set(listed.map { $0["realm"] ?? "" }) == [Self.hr, Self.payroll] && listed.allSatisfy { $0["origin"] == idp.url && $0["expires_at"] == nil })
        #expect(Set(listed.map { $0["token"] ?? "" }) == Set(tokens.values.map(\.value.exposedValue)))
        #expect(try run("token", "ms").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == user.value.exposedValue)
        // An outer exec's WebGate tokens are not passed on, like its other secrets.
        let nested = try runner.run(["exec", "ms", "--", "env"], env: ["AUTHDECK_WEBGATE_TOKENS_OUTER": "outer-webgate-Tk41"])
        #expect(nested.status == 0 && nested.stdout.contains("AUTHDECK_WEBGATE_TOKENS_MS=") && !nested.stdout.contains("outer-webgate-Tk41"))
    }

    @Test func aKeptTokenTheWebGateStopsAcceptingIsAskedForAgainOnce() throws {
        try signIn()
        #expect(try request("/webgate/hr/a").status == 0)
        let first = try #require(try held()[Self.hr])
        #expect(try idp.admin("oam/rest", #"{"action":"forget-webgate","webgate":"WebGateHR"}"#).contains("1"))
        let r = try request("/webgate/hr/a")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try calls("access").count == 2, "asked for again once")
        #expect(try calls("authenticate").count == 1, "the user token was still good")
        let second = try #require(try held()[Self.hr])
        #expect(try second.value != first.value && account()?.credentials.accessTokens.count == 2, "the refused one dropped, the new one kept")
        #expect(try presented(to: "WebGateHR") == ["WebGateHR": 3])
    }

    @Test func aUserTokenTheServerRevokesMakesTheAccountNeedSignInWithNothingDeleted() throws {
        try signIn()
        #expect(try request("/webgate/payroll/a").status == 0)
        let before = try #require(try account())
        #expect(try idp.admin("oam/rest", #"{"action":"revoke-user-tokens"}"#).contains("1"))
        let r = try request("/webgate/hr/a")
        #expect(r.status == 3, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("no longer accepts its user token") && r.stderr.contains("authdeck login ms"), "\(r.stderr)")
        let after = try #require(try account())
        func kept(_ a: StoredAccount) -> [[String]] { a.credentials.accessTokens.map { [$0.id, $0.tokenType, $0.value.exposedValue] + $0.requestedScopes } }
        #expect(kept(after) == kept(before), "the user token and payroll's token are kept")
        #expect(after.credentials.accessTokens.allSatisfy { $0.expiresAt != nil && !$0.isValid(at: SystemClock().now(), skew: .seconds(0)) },
                "marked expired: the server ended their session")
        #expect(after.credentials.extras == before.credentials.extras)
        #expect(after.account.lastError?.errorClass == .needsInteraction)
        #expect(try run("accounts", "--json").stdout.contains("\"state\" : \"needs_sign_in\""))
        #expect(try run("token", "ms").status == 3, "the refused user token is not handed out")
        #expect(try calls("authenticate").count == 1, "no password to sign in with: nothing sent")
        // Signed in again, it works.
        try signIn()
        #expect(try request("/webgate/hr/a").status == 0)
    }

    /// The demo's Mobile and Social account has been through the WebGate once (so the deck
    /// shows its token), and a script's `request` through the other WebGate works.
    @Test func theDemosMobileAndSocialAccountRequestsThroughAWebGate() throws {
        let tmp = home.file("demo-tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        var env = ["HOME": home.path, "XDG_DATA_HOME": home.file("demo-data"), "XDG_CONFIG_HOME": home.file("demo-config"), "TMPDIR": tmp,
                   "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let seed = try BinaryRunner(product: "authdeck", environment: env).run(["demo", "--seed-only"], timeout: 90)
        try #require(seed.status == 0, "\(seed.stderr)")
        let lines = seed.stdout.split(separator: "\n").map(String.init)
        let emulator = try #require(lines.first { $0.hasPrefix("emulator ") }?.split(separator: " ").map(String.init))
        let pid = try #require(Int32(emulator.last ?? ""))
        defer {
            kill(pid, SIGTERM)
            if let dir = lines.first(where: { $0.hasPrefix("store ") }).map({ (String($0.dropFirst(6)) as NSString).deletingLastPathComponent }) {
                try? FileManager.default.removeItem(atPath: dir)
            }
        }
        for line in lines where line.hasPrefix("export ") {
            for pair in line.dropFirst(7).split(separator: " ") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 { env[kv[0]] = kv[1] }
            }
        }
        let demo = BinaryRunner(product: "authdeck", environment: env)
        let accounts = try demo.run(["accounts", "--json"])
        #expect(accounts.stdout.contains("\"provider\" : \"hr-rest\"") && accounts.stdout.contains("\"token_type\" : \"OAM-Auth\""), "\(accounts.stdout)")
        let r = try demo.run(["request", "hr-rest", emulator[1] + "/webgate/payroll/runs"])
        #expect(r.status == 0 && r.stdout.contains("WebGatePayroll"), "\(r.stdout) \(r.stderr)")
    }

    @Test(arguments: ["escapes", "quotes", "huge"])
    func aHostileChallengeIsRefusedInertAndBounded(style: String) throws {
        try signIn()
        let r = try request("/webgate/hostile/\(style)")
        #expect(r.status == 1, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("sent an OAM-Auth challenge authdeck does not answer"), "\(r.stderr)")
        #expect(r.stderr.utf8.count < 600 && !r.stderr.contains("\u{1b}") && !r.stderr.contains("\u{7}") && !r.stderr.contains("stolen"), "\(r.stderr.prefix(600))")
        #expect(r.stdout.isEmpty)
        #expect(try calls("access").isEmpty, "nothing was sent to the Mobile and Social server")
        #expect(try held().isEmpty)
    }
}
