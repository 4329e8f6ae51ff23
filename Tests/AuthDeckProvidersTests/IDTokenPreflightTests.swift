import Testing
import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckProviders
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// An issuer whose id_tokens could not be checked is named before anyone is asked to sign in
/// (a trial approved a device code, then was refused): one that signs only with a shared secret
/// while the client has none, and one whose advertised public keys cannot be read.
@Suite struct IDTokenPreflightTests {
    let dir = TempDirectory()
    struct NoPrompts: SignInPresenter { func present(_ prompt: SignInPrompt) async {} }

    func failure(algs: String, jwks: Int, secret: Bool) async throws -> (AuthFailure?, [String]) {
        let http = ScriptedHTTPClient()
        http.on("GET", "https://a.test/.well-known/openid-configuration") { _ in
            ScriptedHTTPClient.json(200, #"{"issuer":"https://a.test","token_endpoint":"https://a.test/token","authorization_endpoint":"https://a.test/auth","#
                                    + #""device_authorization_endpoint":"https://a.test/device","jwks_uri":"https://a.test/jwks","#
                                    + #""id_token_signing_alg_values_supported":\#(algs)}"#)
        }
        http.on("GET", "https://a.test/jwks") { _ in ScriptedHTTPClient.json(jwks, jwks == 200 ? #"{"keys":[]}"# : #"{"error":"forbidden"}"#) }
        http.on("POST", "https://a.test/device") { _ in
            ScriptedHTTPClient.json(200, #"{"device_code":"dc","user_code":"UC","verification_uri":"https://a.test/v","expires_in":1,"interval":1}"#)
        }
        http.on("POST", "https://a.test/token") { _ in ScriptedHTTPClient.json(400, #"{"error":"expired_token"}"#) }
        // A store of its own each time: discovery documents are cached there.
        let name = UUID().uuidString
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("\(name).db"), keyFilePath: dir.file("\(name).key")), clock: SystemClock())
        let context = AdapterContext(http: http, clock: SystemClock(), documents: store, browser: nil,
                                     environment: secret ? ["GL_SECRET": "s3cret"] : [:])
        let profile = ProviderProfile(id: "gl", kind: .oidc, clientId: "c", scopes: ["openid"], endpoints: ["issuer": "https://a.test"],
                                      clientSecretEnv: secret ? "GL_SECRET" : nil)
        let adapter = try ProviderRegistry.adapter(for: profile, context: context)
        do {
            _ = try await adapter.signIn(flow: .device, presenter: NoPrompts(), options: SignInOptions(timeout: .seconds(2)))
            return (nil, http.requests.map(\.url))
        } catch let f as AuthFailure {
            return (f, http.requests.map(\.url))
        }
    }

    @Test func sharedSecretSigningWithoutASecretIsSaidBeforeTheDeviceCode() async throws {
        let (f, urls) = try await failure(algs: #"["HS256","HS512"]"#, jwks: 403, secret: false)
        #expect(f?.code == "unverifiable_id_token", "\(String(describing: f))")
        #expect(f?.remedy.contains("signs id_tokens only with HS256/HS512") == true && f?.remedy.contains("nothing was asked of you") == true)
        #expect(!urls.contains("https://a.test/device"), "no device code was asked for: \(urls)")
    }

    @Test func unreadablePublicKeysAreSaidBeforeTheDeviceCode() async throws {
        let (f, urls) = try await failure(algs: #"["RS256"]"#, jwks: 403, secret: false)
        #expect(f?.code == "bad_jwks" && f?.remedy.contains("nothing was asked of you") == true, "\(String(describing: f))")
        #expect(!urls.contains("https://a.test/device"), "\(urls)")
    }

    @Test func aCheckableIssuerGoesOnToTheDeviceCode() async throws {
        // With a secret, HS256 can be checked; readable keys for RS256: both reach the person.
        for (algs, jwks, secret) in [(#"["HS256"]"#, 403, true), (#"["RS256"]"#, 200, false)] {
            let (f, urls) = try await failure(algs: algs, jwks: jwks, secret: secret)
            #expect(urls.contains("https://a.test/device"), "\(algs): \(urls) \(String(describing: f))")
        }
    }
}
