import AuthDeckHTTP

/// The ways out of the process a command's use cases take: the network and the person's
/// browser. Each nil is the real one (libcurl with the environment's proxy variables;
/// `BrowserOpener` without authdeck's secrets).
///
/// Why one value: the CLI's commands hand it to `ProviderWiring` without touching HTTP
/// themselves (the CLI does not import AuthDeckHTTP), and a test gives a scripted network
/// and a recording browser to run a command in-process, as gh's factory hands out its client.
public struct NetworkPorts: Sendable {
    public let http: (any HTTPClient)?
    public let browser: (any URLOpening)?

    public init(http: (any HTTPClient)? = nil, browser: (any URLOpening)? = nil) {
        self.http = http
        self.browser = browser
    }
}
