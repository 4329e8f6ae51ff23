import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckHTTP
import AuthDeckProviders
import AuthDeckApp
import AuthDeckTestSupport

/// `CommandLineSignIn` below the binary: a Facebook device sign-in with the real adapter over
/// a scripted Graph API, saved to a real store; and the request's rules (a flow not offered,
/// OAM-only options, a password flow without a username) refused before anything is sent.
struct CommandLineSignInTests {
    let dir = TempDirectory()
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    static let graph = "https://graph.test/v19.0/"

    func signIn(_ http: ScriptedHTTPClient) throws -> (CommandLineSignIn, DeckStore) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let config = try ConfigLoader.parse(DeckFixture.configTOML + DeckFixture.scriptedFacebookTOML, path: dir.file("config.toml"))
        return (CommandLineSignIn(wiring: ProviderWiring(store: store, clock: clock, environment: [:], http: http), config: config), store)
    }

    @Test func aDeviceSignInIsSavedWithWhatTheProviderSaid() async throws {
        let http = ScriptedHTTPClient()
        http.on("POST", Self.graph + "device/login") { _ in
            ScriptedHTTPClient.json(200, #"{"code":"device-code-Zq8","user_code":"ABCD1234","verification_uri":"https://www.facebook.com/device","expires_in":420,"interval":1}"#)
        }
        http.on("POST", Self.graph + "device/login_status") { _ in ScriptedHTTPClient.json(200, #"{"access_token":"fb-token-Zq8","expires_in":5184000}"#) }
        http.on("GET", Self.graph + "me") { _ in ScriptedHTTPClient.json(200, #"{"id":"42","name":"Taro","email":"taro@example.jp"}"#) }
        let (signIn, store) = try signIn(http)
        let presenter = RecordingPresenter()
        let outcome = try await signIn.run("meta", .init(flow: nil, username: nil, passwordGiven: false), presenter: presenter,
                                           password: { _ in Issue.record("no password is asked for a device sign-in"); return Secret("x") }, note: { _ in })
        guard case .signedIn(let stored) = outcome else { Issue.record("\(outcome)"); return }
        #expect(stored.account.username == "taro@example.jp" && stored.account.subject == "1234567890:42" && stored.account.displayName == "Taro")
        let saved = try #require(try store.account(id: stored.account.id))
        #expect(saved.credentials.accessTokens.map(\.value.exposedValue) == ["fb-token-Zq8"])
        let codes = presenter.prompts.compactMap { prompt -> String? in
            guard case .deviceCode(let code, _, _, _, _) = prompt else { return nil }
            return code
        }
        #expect(codes == ["ABCD1234"], "\(presenter.prompts)")
        let status = try #require(http.requests.first { $0.url == Self.graph + "device/login_status" })
        #expect(ScriptedHTTPClient.form(status) == ["access_token": "1234567890|client-token-Zq8", "code": "device-code-Zq8"])
    }

    /// Each refusal names what was asked; nothing is sent and nothing saved.
    @Test func aRequestTheProviderCannotTakeIsRefused() async throws {
        let http = ScriptedHTTPClient()
        let (signIn, store) = try signIn(http)
        func refusal(_ provider: String, _ request: CommandLineSignIn.Request) async -> String? {
            let refused = await #expect(throws: Refusal.self) {
                _ = try await signIn.run(provider, request, presenter: RecordingPresenter(),
                                         password: { _ in Issue.record("no password may be asked"); return Secret("x") }, note: { _ in })
            }
            #expect(refused?.exitStatus == ExitStatus.usage)
            return refused?.sentence
        }
        #expect(await refusal("meta", .init(flow: .password, username: "taro", passwordGiven: false))
                == "provider \"meta\" does not offer --password (it offers: --device, --browser)")
        #expect(await refusal("meta", .init(flow: .device, username: nil, connectivity: .offline, passwordGiven: false))
                == "--offline, --auto and --remember are for OAM providers")
        #expect(await refusal("work", .init(flow: .password, username: nil, passwordGiven: false)) == "--password needs --username")
        #expect(try http.requests.isEmpty && store.accountRows(includeQuarantined: true).isEmpty)
    }
}
