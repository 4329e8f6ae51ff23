import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckApp
import AuthDeckPlatform

/// `authdeck docker-credential get|store|erase|list` — and `docker-credential-authdeck`, the
/// name docker runs (the front passes it on): Docker's credential-helper protocol over the
/// `[[credential]]` entries whose URL is a registry.
///
/// `get` reads the registry (`host[:port]`) on stdin and answers `{"ServerURL","Username",
/// "Secret"}`: for an Azure Container Registry the account's token exchanged for a registry
/// refresh token (user `00000000-0000-0000-0000-000000000000`, as `az acr login`), else the
/// token itself. A registry no entry covers: "credentials not found in native keychain", exit
/// 1, the words docker expects. `store` and `erase` change nothing; `list` names the entries.
struct DockerCredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docker-credential", abstract: "docker's credential helper: registry credentials from [[credential]] routes.",
        discussion: """
            There is no --json: this helper speaks docker's credential-helper protocol (a server URL on stdin, JSON answers), \
            which docker reads, and nothing else. For the token as JSON use `authdeck token ACCOUNT --json`.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "get, store, erase or list (docker passes it).") var operation: String

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let input = String(decoding: context.input.readToEnd().prefix(64 << 10), as: UTF8.self)
        switch operation {
        case "store", "erase": return
        case "list":
            let routes = try context.loadConfig().credentials.filter(\.isDockers)
            let list = Dictionary(routes.map { ($0.hostAndPort, $0.isACR ? RegistryRoutesUser.acr : ($0.username ?? $0.account)) }) { a, _ in a }
            return context.output.raw(String(decoding: try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]), as: UTF8.self) + "\n")
        case "get": break
        default: throw CLIError.usage("docker-credential takes get, store, erase or list (found \"\(TerminalText.inert(operation))\")")
        }
        let server = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if let refusal = Self.transportRefusal(server) { throw CLIError.failure(refusal) }
        let host = CredentialRoute(url: server.contains("://") ? server : "https://" + server, account: "").hostAndPort
        let config = try context.loadConfig()
        guard let route = config.credentials.filter({ $0.isDockers && $0.hostAndPort == host }).max(by: { $0.url.count < $1.url.count }) else {
            // What docker's helpers say when they hold nothing for the registry.
            context.output.raw("credentials not found in native keychain\n")
            throw ExitCode(1)
        }
        // The entry's own URL too: `url = "http://…"` named over plain http gives docker nothing.
        if let refusal = SecretDestination.refusal(.accessToken, to: route.url) {
            throw CLIError.failure("docker-credential for \(TerminalText.inert(server)): the [[credential]] url: \(refusal); nothing was given to docker")
        }
        let (token, username) = try await RoutedToken(context: context, config: config, ask: true).token(for: route)
        var answer: [String: String] = ["ServerURL": server]
        if route.isACR {
            // Whoever can write the CA file chooses whom TLS believes: held to config.toml's rule.
            if let caFile = route.caFile, let problem = TrustedPath.problem(caFile, home: XDG.home(context.environment)) {
                throw CLIError.failure("[[credential]] \(TerminalText.inert(route.url)): ca_file \(caFile): \(problem); nothing was sent")
            }
            do {
                answer["Secret"] = try await RegistryExchange(environment: context.environment, http: context.network.http)
                    .refreshToken(registry: host, scheme: route.url.lowercased().hasPrefix("http://") ? "http" : "https",
                                  token: token, caFile: route.caFile).exposedValue
            } catch let failure as AuthFailure {
                throw failure.naming(route.account)
            }
            answer["Username"] = RegistryRoutesUser.acr
        } else {
            (answer["Username"], answer["Secret"]) = (username, token.value.exposedValue)
        }
        context.output.raw(String(decoding: try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self) + "\n")
    }
}

extension DockerCredentialCommand {
    /// Why a credential for `server` (as docker names it) is refused for how it would travel,
    /// or nil: a registry named with a scheme gets one only over https, or plain http to this
    /// machine — as git's routes answer only their own scheme. A bare `host[:port]` is docker's
    /// https. (The one place the docker helper decides this, kept so it can follow a wider rule.)
    static func transportRefusal(_ server: String) -> String? {
        guard let refusal = SecretDestination.refusal(.accessToken, to: server.contains("://") ? server : "https://" + server) else { return nil }
        return "docker-credential for \(TerminalText.inert(server)): \(refusal); nothing was given to docker"
    }
}

/// The user name an ACR refresh token goes with, as `az acr login` hands it to docker.
enum RegistryRoutesUser {
    static let acr = "00000000-0000-0000-0000-000000000000"
}
