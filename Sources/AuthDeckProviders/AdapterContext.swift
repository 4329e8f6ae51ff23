import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// What every adapter is built with: its ways out to the world, all injected.
public struct AdapterContext: Sendable {
    public var http: any HTTPClient
    public var clock: any WallClock
    public var documents: any DocumentCache
    public var sleeper: any Sleeper
    public var browser: BrowserOpener?
    /// For secrets named by environment variable (`client_secret_env`).
    public var environment: [String: String]

    public init(http: any HTTPClient, clock: any WallClock, documents: any DocumentCache, sleeper: any Sleeper = TaskSleeper(),
                browser: BrowserOpener?, environment: [String: String]) {
        self.http = http
        self.clock = clock
        self.documents = documents
        self.sleeper = sleeper
        self.browser = browser
        self.environment = environment
    }
}
