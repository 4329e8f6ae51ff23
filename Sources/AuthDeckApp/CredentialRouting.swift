import AuthDeckCore
import AuthDeckConfig
import AuthDeckHTTP
import AuthDeckPlatform

/// Which `[[credential]]` entry answers git or docker for what they asked, and whether the
/// answer may go there: the one place the helpers (`git-credential`, `docker-credential`) and
/// the agent (`op=git`, `op=docker`) decide it, so a remote host is held to the same rules.
public enum CredentialRouting {
    /// git's answer: nothing (with the reason to say, when there is one), or the entry.
    public enum Git: Equatable, Sendable {
        case none(String?)
        case route(CredentialRoute)
    }

    /// docker's answer: refused (the sentence), no entry for the registry, or the entry and
    /// the registry's `host[:port]`.
    public enum Docker: Equatable, Sendable {
        case refused(String)
        case notFound
        case route(CredentialRoute, host: String)
    }

    /// The user name an ACR refresh token goes with, as `az acr login` hands it to docker.
    public static let acrUser = "00000000-0000-0000-0000-000000000000"

    /// Why nothing is given for `url` whatever the config says (a dot segment that may climb
    /// out of an entry's path: `CredentialRoute.climbs`), or nil.
    public static func climbReason(_ url: String) -> String? {
        CredentialRoute.climbs(url)
            ? "the path holds a dot segment (`.` or `..`, perhaps percent-encoded), which may climb out of the [[credential]] url it starts with"
            : nil
    }

    /// git's entry for `url` (the longest covering git entry), held to the transport rule for
    /// where git sends the token.
    public static func git(_ url: String, in config: DeckConfig) -> Git {
        if let climb = climbReason(url) { return .none(climb) }
        guard let route = CredentialRoute.route(for: url, in: config.credentials.filter { !$0.isDockers }) else { return .none(nil) }
        // git sends the token where it asked for it: held to the one decision like every sender.
        if let refusal = SecretDestination.refusal(.accessToken, to: url) { return .none("\(refusal)") }
        return .route(route)
    }

    /// docker's entry for `server` as docker names it (a bare `host[:port]` is https).
    public static func docker(_ server: String, in config: DeckConfig) -> Docker {
        if let refusal = transportRefusal(server) { return .refused(refusal) }
        let host = CredentialRoute(url: server.contains("://") ? server : "https://" + server, account: "").hostAndPort
        guard let route = config.credentials.filter({ $0.isDockers && $0.hostAndPort == host }).max(by: { $0.url.count < $1.url.count }) else {
            return .notFound
        }
        // The entry's own URL too: `url = "http://…"` named over plain http gives docker nothing.
        if let refusal = SecretDestination.refusal(.accessToken, to: route.url) {
            return .refused("docker-credential for \(TerminalText.inert(server)): the [[credential]] url: \(refusal); nothing was given to docker")
        }
        return .route(route, host: host)
    }

    /// Why a credential for `server` is refused for how it would travel, or nil: a registry
    /// named with a scheme gets one only over https, or plain http to this machine.
    public static func transportRefusal(_ server: String) -> String? {
        guard let refusal = SecretDestination.refusal(.accessToken, to: server.contains("://") ? server : "https://" + server) else { return nil }
        return "docker-credential for \(TerminalText.inert(server)): \(refusal); nothing was given to docker"
    }

    /// docker's user name and secret for `route`: for an Azure Container Registry the token
    /// exchanged for a registry refresh token (`RegistryExchange`), else the token itself.
    public static func dockerSecret(_ route: CredentialRoute, host: String, token: AccessToken, username: String,
                                    environment: [String: String], http: (any HTTPClient)?) async throws -> (username: String, secret: String) {
        guard route.isACR else { return (username, token.value.exposedValue) }
        // Whoever can write the CA file chooses whom TLS believes: held to config.toml's rule.
        if let caFile = route.caFile, let problem = TrustedPath.problem(caFile, home: XDG.home(environment)) {
            throw Refusal.failure("[[credential]] \(TerminalText.inert(route.url)): ca_file \(caFile): \(problem); nothing was sent")
        }
        do {
            let secret = try await RegistryExchange(environment: environment, http: http)
                .refreshToken(registry: host, scheme: route.url.lowercased().hasPrefix("http://") ? "http" : "https", token: token, caFile: route.caFile)
            return (acrUser, secret.exposedValue)
        } catch let failure as AuthFailure {
            throw failure.naming(route.account)
        }
    }
}
