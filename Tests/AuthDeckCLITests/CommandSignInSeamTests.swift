import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckConfig
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// The commands that add accounts — `login` (a device sign-in over a scripted network) and
/// `import cookies` — run in-process into a real store in a temporary home.
struct CommandSignInSeamTests {
    let seam = SeamHome()
    static let graph = "https://graph.test/v19.0/"

    /// The fixture's providers and a Facebook one whose device flow only the scripted network answers.
    func config() throws -> DeckConfig {
        try seam.config(DeckFixture.configTOML + DeckFixture.scriptedFacebookTOML)
    }

    func graph() -> ScriptedHTTPClient {
        let http = ScriptedHTTPClient()
        http.on("POST", Self.graph + "device/login") { _ in
            ScriptedHTTPClient.json(200, #"{"code":"device-code-Zq8","user_code":"ABCD1234","verification_uri":"https://www.facebook.com/device","expires_in":420,"interval":1}"#)
        }
        http.on("POST", Self.graph + "device/login_status") { _ in ScriptedHTTPClient.json(400, #"{"error":{"code":31,"error_subcode":1349174,"message":"User request still pending"}}"#) }
        http.on("POST", Self.graph + "device/login_status") { _ in ScriptedHTTPClient.json(200, #"{"access_token":"fb-token-Zq8","expires_in":5184000}"#) }
        http.on("GET", Self.graph + "me") { _ in ScriptedHTTPClient.json(200, #"{"id":"42","name":"Taro","email":"taro@example.jp"}"#) }
        return http
    }

    /// The first sign-in creates the store (said on stderr, with the device code) and says who
    /// signed in until when; the account and its token are in the store. A second sign-in of
    /// the same person with `--json` answers the same account as JSON.
    @Test func loginSignsInWithADeviceCode() async throws {
        let http = graph()
        let config = try config()
        let output = CapturedOutput()
        try await LoginCommand.parse(["meta"]).run(in: seam.context(output, http: http, config: config))
        let location = StoreLocation.resolve(storeFlag: nil, environment: seam.environment)
        #expect(output.err.contains("authdeck: created a new store at \(location.databasePath)"), "\(output.err)")
        #expect(output.err.contains("ABCD1234") && output.err.contains("https://www.facebook.com/device"), "\(output.err)")
        let store = try DeckStore.open(location, clock: seam.clock)
        let account = try #require(try store.accountRows(includeQuarantined: true).first)
        #expect(account.username == "taro@example.jp" && account.providerId == "meta")
        #expect(output.out == "Signed in as taro@example.jp (\(account.id)); the token expires in 60d 00h.\n", "\(output.out)")
        #expect(try store.account(id: account.id)?.credentials.accessTokens.map(\.value.exposedValue) == ["fb-token-Zq8"])
        #expect(http.requests.filter { $0.url == Self.graph + "device/login_status" }.count == 2)
        let again = CapturedOutput()
        try await LoginCommand.parse(["meta", "--json"]).run(in: seam.context(again, http: http, config: config))
        let json = try #require(JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any], "\(again.out)")
        #expect(json["id"] as? String == account.id && json["username"] as? String == "taro@example.jp" && json["state"] as? String == "signed_in")
        #expect(try store.accountRows(includeQuarantined: true).count == 1 && !again.err.contains("created a new store"))
    }

    /// A provider not in the config is a usage error naming it, before a store is created or a
    /// request sent; a flow the provider does not offer is refused likewise.
    @Test func loginRefusesWhatTheConfigDoesNotOffer() async throws {
        let http = graph()
        let config = try config()
        let unknown = await #expect(throws: CLIError.self) {
            try await LoginCommand.parse(["nope"]).run(in: seam.context(CapturedOutput(), http: http, config: config))
        }
        #expect(unknown?.status == ExitStatus.usage && unknown?.message.contains("\"nope\"") == true, "\(String(describing: unknown))")
        #expect(!FileManager.default.fileExists(atPath: StoreLocation.resolve(storeFlag: nil, environment: seam.environment).databasePath))
        let refused = await #expect(throws: (any Error).self) {
            try await LoginCommand.parse(["meta", "--password", "--username", "taro"]).run(in: seam.context(CapturedOutput(), http: http, config: config))
        }
        #expect((refused as? any ReportedError)?.sentence == "provider \"meta\" does not offer --password (it offers: --device, --browser)")
        #expect(http.requests.isEmpty)
    }

    /// A curl jar's cookies of the provider's site become a cookie account; what was left out
    /// is said; `--json` names the cookies, never their values.
    @Test func importCookiesMakesACookieAccount() async throws {
        let store = try seam.seed()
        let now = seam.clock.now().secondsSinceEpoch
        let jar = seam.home.file("jar.txt")
        try """
            # Netscape HTTP Cookie File
            contoso.sharepoint.com\tFALSE\t/\tTRUE\t\(now + 3600)\tFedAuth\tfedauth-new-Zq8
            .sharepoint.com\tTRUE\t/\tTRUE\t\(now + 7200)\trtFa\trtfa-new-Zq8
            contoso.sharepoint.com\tFALSE\t/\tTRUE\t\(now - 60)\tOld\told
            example.org\tFALSE\t/\tTRUE\t\(now + 3600)\tother\tx

            """.write(toFile: jar, atomically: true, encoding: .utf8)
        let output = CapturedOutput()
        try await ImportCookiesCommand.parse([jar, "--provider", "sp", "--username", "jiro@contoso.com"]).run(in: seam.context(output))
        let imported = try #require(try store.accountRows(includeQuarantined: true).first { $0.providerId == "sp" && $0.username == "jiro@contoso.com" })
        #expect(output.out == "Imported 2 cookies for contoso.sharepoint.com as \(imported.id) (FedAuth, rtFa).\n"
                + "Left out 1 cookie of other sites and 1 expired cookie (Old).\n", "\(output.out)\(output.err)")
        #expect(try store.account(id: imported.id)?.credentials.cookies.map(\.value.exposedValue) == ["fedauth-new-Zq8", "rtfa-new-Zq8"])
        let json = CapturedOutput()
        try await ImportCookiesCommand.parse([jar, "--provider", "sp", "--username", "jiro@contoso.com", "--json"]).run(in: seam.context(json))
        let answer = try #require(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json.out)")
        #expect(answer["account"] as? String == imported.id && answer["imported"] as? [String] == ["FedAuth", "rtFa"])
        #expect(!json.out.contains("Zq8"))
        let wrong = await #expect(throws: CLIError.self) {
            try await ImportCookiesCommand.parse([jar, "--provider", "nope"]).run(in: seam.context(CapturedOutput()))
        }
        #expect(wrong?.status == ExitStatus.usage)
    }
}
