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

/// `ProviderWiring` hands its ports on: the browser a test gives is the one the adapters and
/// `openInBrowser` use, and without one the real browser starts without authdeck's secrets.
struct NetworkPortsTests {
    let dir = TempDirectory()
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))

    func parts() throws -> (DeckStore, DeckConfig) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let config = try ConfigLoader.parse("""
            [[provider]]
            id = "gl"
            kind = "oidc"
            client_id = "authdeck"
            client_secret_env = "GL_SECRET"
            endpoints = { issuer = "https://issuer.test" }
            """, path: dir.file("config.toml"))
        return (store, config)
    }

    @Test func theBrowserGivenIsTheOneOpened() throws {
        let (store, config) = try parts()
        let browser = RecordingBrowser()
        let wiring = ProviderWiring(store: store, clock: clock, environment: [:], network: NetworkPorts(http: ScriptedHTTPClient(), browser: browser))
        #expect(wiring.openInBrowser("https://issuer.test/device", config: config))
        #expect(wiring.adapterContext(config).browser?.open("https://issuer.test/auth") == "recording-browser")
        #expect(browser.opened == ["https://issuer.test/device", "https://issuer.test/auth"])
    }

    /// The real browser's environment lacks the `client_secret_env` variable and authdeck's password.
    @Test func withoutAPortTheRealBrowserGetsNoSecrets() throws {
        let (store, config) = try parts()
        let environment = ["GL_SECRET": "secret-Zq8", "AUTHDECK_PASSWORD": "pw-Zq8", "PATH": "/usr/bin:/bin"]
        let wiring = ProviderWiring(store: store, clock: clock, environment: environment)
        let real = try #require(wiring.adapterContext(config).browser as? BrowserOpener)
        #expect(real.environment["PATH"] == "/usr/bin:/bin" && real.environment["GL_SECRET"] == nil && real.environment["AUTHDECK_PASSWORD"] == nil)
    }
}
