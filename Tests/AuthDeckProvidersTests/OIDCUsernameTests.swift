import Testing
import Synchronization
import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckProviders
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Which claim names an OIDC account (issue 39, item 11): with `openid offline_access` an
/// issuer may send only `sub` and `name`, and the account read as its opaque `sub`.
@Suite struct OIDCUsernameTests {
    let dir = TempDirectory()
    struct NoPrompts: SignInPresenter { func present(_ prompt: SignInPrompt) async {} }

    /// A password sign-in whose token answer has no id_token, so the names come from userinfo.
    func username(userinfo: String) async throws -> String {
        let http = ScriptedHTTPClient()
        http.on("POST", "http://127.0.0.1:9/token") { _ in
            ScriptedHTTPClient.json(200, #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1"}"#)
        }
        http.on("GET", "http://127.0.0.1:9/userinfo") { _ in ScriptedHTTPClient.json(200, userinfo) }
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: SystemClock())
        let context = AdapterContext(http: http, clock: SystemClock(), documents: store, browser: nil, environment: [:])
        let profile = ProviderProfile(id: "gl", kind: .oidc, clientId: "c", scopes: ["openid", "offline_access"],
                                      endpoints: ["token": "http://127.0.0.1:9/token", "userinfo": "http://127.0.0.1:9/userinfo"],
                                      options: ["allow_password": "true"])
        let adapter = try ProviderRegistry.adapter(for: profile, context: context)
        let result = try await adapter.signIn(flow: .password, presenter: NoPrompts(),
                                              options: SignInOptions(username: "hanako", password: Secret("pw-1")))
        #expect(result.subject.hasSuffix("|EKl2ymrNBR"), "\(result.subject)")
        return result.username
    }

    /// Records what the adapter says to the person during a sign-in.
    final class Notices: SignInPresenter, @unchecked Sendable {
        let said = Mutex<[String]>([])
        func present(_ prompt: SignInPrompt) async {
            if case .notice(let text) = prompt { said.withLock { $0.append(text) } }
        }
    }

    /// Round 3, item 2: the README's scopes against an issuer that grants neither `profile` nor
    /// `email` signed in "as tpXKSfHeqjl8pe0dftBrS5wiHxs3A3Dg" with no word why. The sign-in
    /// says the issuer gave no readable name and which asked-for scopes were not granted.
    @Test func anAccountNamedByItsSubSaysWhyAndWhichScopesWereNotGranted() async throws {
        /// A sign-in with the README's scopes; the token answer grants `openid offline_access`.
        func notices(userinfo: String, store name: String) async throws -> (username: String, said: [String]) {
            let http = ScriptedHTTPClient()
            http.on("POST", "http://127.0.0.1:9/token") { _ in
                ScriptedHTTPClient.json(200, #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1","scope":"openid offline_access"}"#)
            }
            http.on("GET", "http://127.0.0.1:9/userinfo") { _ in ScriptedHTTPClient.json(200, userinfo) }
            let store = try DeckStore.open(StoreLocation(databasePath: dir.file("\(name).db"), keyFilePath: dir.file("\(name).key")), clock: SystemClock())
            let context = AdapterContext(http: http, clock: SystemClock(), documents: store, browser: nil, environment: [:])
            let profile = ProviderProfile(id: "gl", kind: .oidc, clientId: "c", scopes: ["openid", "offline_access", "profile", "email"],
                                          endpoints: ["token": "http://127.0.0.1:9/token", "userinfo": "http://127.0.0.1:9/userinfo"],
                                          options: ["allow_password": "true"])
            let notices = Notices()
            let result = try await ProviderRegistry.adapter(for: profile, context: context)
                .signIn(flow: .password, presenter: notices, options: SignInOptions(username: "hanako", password: Secret("pw-1")))
            return (result.username, notices.said.withLock { $0 })
        }
        let opaque = try await notices(userinfo: #"{"sub":"tpXKSfHeqjl8pe0dftBrS5wiHxs3A3Dg"}"#, store: "opaque")
        #expect(opaque.username == "tpXKSfHeqjl8pe0dftBrS5wiHxs3A3Dg")
        #expect(opaque.said.count == 1, "\(opaque.said)")
        let note = opaque.said.first ?? ""
        #expect(note.contains("gave no readable name (preferred_username, email, name)"), "\(note)")
        #expect(note.contains("asked for but not granted: profile, email"), "\(note)")
        // A readable name says nothing more.
        let named = try await notices(userinfo: #"{"sub":"tpX","email":"hanako@example.jp"}"#, store: "named")
        #expect(named.username == "hanako@example.jp" && named.said.isEmpty, "\(named)")
    }

    @Test func aReadableClaimNamesTheAccountBeforeSub() async throws {
        #expect(try await username(userinfo: #"{"sub":"EKl2ymrNBR","name":"Hanako Yamada"}"#) == "Hanako Yamada")
        #expect(try await username(userinfo: #"{"sub":"EKl2ymrNBR","name":"Hanako Yamada","email":"hanako@example.jp"}"#) == "hanako@example.jp")
        #expect(try await username(userinfo: #"{"sub":"EKl2ymrNBR","name":"H","email":"h@example.jp","preferred_username":"hanako"}"#) == "hanako")
        // A blank name is no name.
        #expect(try await username(userinfo: #"{"sub":"EKl2ymrNBR","name":" "}"#) == "EKl2ymrNBR")
        #expect(try await username(userinfo: #"{"sub":"EKl2ymrNBR"}"#) == "EKl2ymrNBR")
    }
}
