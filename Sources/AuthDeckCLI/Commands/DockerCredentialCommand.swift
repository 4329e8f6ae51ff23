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
        let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile().prefix(64 << 10), as: UTF8.self)
        let context = DeckContext(global)
        switch operation {
        case "store", "erase": return
        case "list":
            let routes = try context.loadConfig().credentials.filter(\.isDockers)
            let list = Dictionary(routes.map { ($0.hostAndPort, $0.isACR ? RegistryRoutesUser.acr : ($0.username ?? $0.account)) }) { a, _ in a }
            return Output.raw(String(decoding: try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]), as: UTF8.self) + "\n")
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
            Output.raw("credentials not found in native keychain\n")
            throw ExitCode(1)
        case .refused(let refusal): throw CLIError.failure(refusal)
        case .route(let found, let named): (route, host) = (found, named)
        }
        let (token, username) = try await RoutedToken(context: context, config: config, ask: true).token(for: route)
        let (user, secret) = try await CredentialRouting.dockerSecret(route, host: host, token: token, username: username,
                                                                      environment: context.environment, http: context.network.http)
        let answer: [String: String] = ["ServerURL": server, "Username": user, "Secret": secret]
        Output.raw(String(decoding: try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self) + "\n")
    }
}

/// The user name an ACR refresh token goes with, as `az acr login` hands it to docker.
enum RegistryRoutesUser {
    static let acr = CredentialRouting.acrUser
}
