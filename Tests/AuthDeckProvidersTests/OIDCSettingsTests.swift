import Testing
import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth
import AuthDeckProviders
import AuthDeckStore
import AuthDeckTestSupport
import AuthDeckPlatform

/// Where client secrets come from, and how a wrong `oidc` provider config is worded.
@Suite struct OIDCSettingsTests {
    let dir = TempDirectory()

    func adapter(_ profile: ProviderProfile, env: [String: String] = [:]) throws -> any ProviderAdapter {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: SystemClock())
        let context = AdapterContext(http: CurlHTTPClient(userAgent: "t"), clock: SystemClock(), documents: store, browser: nil,
                                     environment: env)
        return try ProviderRegistry.adapter(for: profile, context: context)
    }

    func remedy(_ profile: ProviderProfile, env: [String: String] = [:]) -> String? {
        do {
            _ = try adapter(profile, env: env)
            return nil
        } catch let f as AuthFailure {
            #expect(f.errorClass == .misconfigured)
            return f.remedy
        } catch {
            return "\(error)"
        }
    }

    /// Issue 38: whoever can write a provider's `ca_file` chooses whom TLS believes; one others
    /// can write is refused as config.toml is, naming the file and the fix.
    @Test func aCAFileOthersCanWriteIsRefused() throws {
        try FileManager.default.createDirectory(atPath: dir.file("tls"), withIntermediateDirectories: true)
        let ca = dir.file("tls/ca.pem")
        try "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".write(toFile: ca, atomically: true, encoding: .utf8)
        chmod(ca, 0o644)
        let profile = ProviderProfile(id: "gl", kind: .oidc, clientId: "c", endpoints: ["issuer": "https://idp.example"], options: ["ca_file": ca])
        #expect(remedy(profile, env: ["HOME": dir.path]) == nil)
        chmod(ca, 0o666)
        #expect(remedy(profile, env: ["HOME": dir.path]) == "provider \"gl\": options.ca_file \(ca): it is writable by group or others (mode 0666), "
                + "who could change it, so authdeck will not use it; fix it with: chmod go-w \(ca)")
        chmod(ca, 0o644)
        chmod(dir.file("tls"), 0o777)
        #expect(remedy(profile, env: ["HOME": dir.path])?.contains("the directory \(dir.file("tls")) above it is writable") == true)
    }

    @Test func secretsComeFromFilesOrTheEnvironment() throws {
        try "s3cret\n".write(toFile: dir.file("secret"), atomically: true, encoding: .utf8)
        let fromFile = ProviderProfile(id: "gl", kind: .oidc, clientId: "c", clientSecretFile: dir.file("secret"))
        #expect(try SecretSource.clientSecret(fromFile, environment: [:]) == Secret("s3cret"))
        let fromEnv = ProviderProfile(id: "gl", kind: .oidc, clientId: "c", clientSecretEnv: "GL_SECRET")
        #expect(try SecretSource.clientSecret(fromEnv, environment: ["GL_SECRET": "e"]) == Secret("e"))
        #expect(remedy(fromEnv) == "provider \"gl\": environment variable GL_SECRET (client_secret_env) is not set")
        let missing = ProviderProfile(id: "gl", kind: .oidc, clientId: "c", clientSecretFile: dir.file("nope"))
        #expect(remedy(missing) == "provider \"gl\": client_secret_file \(dir.file("nope")) cannot be read")
        #expect(try adapter(fromFile).capabilities.flows.contains(.device))
    }

    @Test func badOptionsAreNamed() {
        // No client_id: it registers at the issuer (issue 29), but a secret without one is a mistake.
        #expect(remedy(ProviderProfile(id: "gl", kind: .oidc)) == nil)
        #expect(remedy(ProviderProfile(id: "gl", kind: .oidc, clientSecretEnv: "GL_SECRET"), env: ["GL_SECRET": "s"])?.contains("needs client_id") == true)
        #expect(remedy(ProviderProfile(id: "gl", kind: .oidc, clientId: "c", options: ["auth_method": "client_secret_post"]))
                == "provider \"gl\": options.auth_method client_secret_post needs client_secret_file or client_secret_env")
        #expect(remedy(ProviderProfile(id: "gl", kind: .oidc, clientId: "c", options: ["redirect_host": "example.com"]))
                == "provider \"gl\": options.redirect_host must be 127.0.0.1 or localhost")
        #expect(remedy(ProviderProfile(id: "gl", kind: .oidc, clientId: "c", options: ["redirect_port": "http"]))
                == "provider \"gl\": options.redirect_port must be a port number (found \"http\")")
        #expect(remedy(ProviderProfile(id: "gl", kind: .oidc, clientId: "c", options: ["auth_method": "magic"]))?
                .hasPrefix("provider \"gl\": options.auth_method must be none, client_secret_basic") == true)
    }

    @Test func everyKindHasAnAdapterThatNamesItsMissingSettings() {
        #expect(remedy(ProviderProfile(id: "am", kind: .oam, clientId: "c")) == "provider \"am\": set endpoints.base (the OAM server) or endpoints.token")
        #expect(remedy(ProviderProfile(id: "fb", kind: .facebook, clientId: "abc")) == "provider \"fb\": client_id must be the numeric Facebook app id")
        #expect(remedy(ProviderProfile(id: "sp", kind: .sharepoint)) == "provider \"sp\": options.site must name the SharePoint host or its https address (e.g. contoso.sharepoint.com)")
        #expect(remedy(ProviderProfile(id: "w", kind: .azuread)) == "provider \"w\": client_id is required")
    }
}
