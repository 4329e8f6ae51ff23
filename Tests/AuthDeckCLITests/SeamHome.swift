import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckConfig
import AuthDeckHTTP
import AuthDeckApp
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// A temporary home holding `DeckFixture`'s accounts in a real store and its config, and the
/// `DeckContext` a command runs in there: the ports a test gives, the rest the process's.
struct SeamHome {
    let home = TempDirectory("authdeck-seam")
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    var environment: [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"), "PATH": "/usr/bin:/bin"]
    }

    /// The fixture's config with its Azure AD authority at `https://login.test`, which only a
    /// scripted network answers (the fixture's own is a closed port).
    static let scriptedAzureTOML = DeckFixture.configTOML.replacingOccurrences(of: "http://127.0.0.1:9", with: "https://login.test")
    /// Where the fixture's `work` accounts (tenant "common") renew over `scriptedAzureTOML`.
    static let workTokenURL = "https://login.test/common/oauth2/v2.0/token"

    /// The fixture's accounts in the default store of `environment`, and its config file.
    func seed() throws -> DeckStore {
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: environment), clock: clock)
        for stored in DeckFixture(now: clock.now()).accounts { try store.insert(stored) }
        _ = try home.writeConfig(DeckFixture.configTOML)
        return store
    }

    /// `text` as the config port's value (no file is read for it).
    func config(_ text: String) throws -> DeckConfig {
        try ConfigLoader.parse(text, path: home.file("given.toml"))
    }

    /// The context a command runs in here; `stdin` is what it reads as its input, `variables`
    /// are set in its environment over the home's own.
    func context(_ output: CapturedOutput, http: (any HTTPClient)? = nil, browser: (any URLOpening)? = nil, config: DeckConfig? = nil,
                 adapter: (any ProviderAdapter)? = nil, stdin: String = "", variables: [String: String] = [:]) -> DeckContext {
        var adapters: ProviderWiring.AdapterFactory?
        if let adapter { adapters = { _, _, _ in adapter } }
        return DeckContext(storeFlag: nil, configFlag: nil, environment: environment.merging(variables) { _, given in given }, clock: clock,
                           output: output, adapters: adapters, network: NetworkPorts(http: http, browser: browser), config: config,
                           input: GivenInput(stdin))
    }
}
