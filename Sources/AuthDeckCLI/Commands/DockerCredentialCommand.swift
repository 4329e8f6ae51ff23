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
            return context.output.raw(try Self.listJSON(context.loadConfig().credentials))
        case "get": break
        default: throw CLIError.usage("docker-credential takes get, store, erase or list (found \"\(TerminalText.inert(operation))\")")
        }
        let server = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if let refusal = CredentialRouting.transportRefusal(server) { throw CLIError.failure(refusal) }
        let config = try context.loadConfig()
        // The same decision the agent makes for a remote docker (`CredentialRouting`).
        let (route, host): (CredentialRoute, String)
        switch CredentialRouting.docker(server, in: config) {
        case .notFound:
            // What docker's helpers say when they hold nothing for the registry.
            context.output.raw(Self.notFound)
            throw ExitCode(1)
        case .refused(let refusal): throw CLIError.failure(refusal)
        case .route(let found, let named): (route, host) = (found, named)
        }
        let (token, username) = try await RoutedToken(context: context, config: config, ask: true).token(for: route)
        let (user, secret) = try await CredentialRouting.dockerSecret(route, host: host, token: token, username: username,
                                                                      environment: context.environment, http: context.network.http)
        context.output.raw(try Self.answerJSON(server: server, username: user, secret: secret))
    }
}

extension DockerCredentialCommand {
    /// What docker's helpers say when they hold nothing for a registry (with exit 1).
    static let notFound = "credentials not found in native keychain\n"

    /// `list`'s answer: each docker route's `host[:port]` and the user name it answers with.
    /// Here and on a machine reached over SSH (`RemoteMode`, the agent's routes).
    static func listJSON(_ routes: [CredentialRoute]) throws -> String {
        let list = Dictionary(routes.filter(\.isDockers).map { ($0.hostAndPort, $0.isACR ? CredentialRouting.acrUser : ($0.username ?? $0.account)) }) { a, _ in a }
        return String(decoding: try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]), as: UTF8.self) + "\n"
    }

    /// `get`'s answer, as docker reads it.
    static func answerJSON(server: String, username: String, secret: String) throws -> String {
        let answer = ["ServerURL": server, "Username": username, "Secret": secret]
        return String(decoding: try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self) + "\n"
    }
}
