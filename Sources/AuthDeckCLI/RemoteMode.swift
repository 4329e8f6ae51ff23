import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckPlatform
import AuthDeckApp

/// authdeck-full on a machine reached over SSH (`AUTHDECK_AGENT` set): `token`, `cookies` and
/// the git, kubectl and docker helpers answered through the forwarded agent socket, in the very
/// output forms the local commands print, with no store, key or config opened or created here.
///
/// Why one place before the commands: the commands' own `run` opens the store first thing;
/// taking the parsed command here keeps its options, validation and usage errors exactly the
/// local ones, and keeps the remote path out of every command's file. The front answers the
/// plain `token`, git `get` and kubectl forms itself (`RemoteFront`); the rest arrive here.
struct RemoteMode {
    let socket: String
    let environment: [String: String]
    /// Where the answers go and git's or docker's request comes from: the process's streams,
    /// or a test's.
    var output: any CommandOutput = StandardStreams()
    var input: any CommandInput = ProcessInput()

    /// The remote mode for `command`, or nil: no agent is named, or the command is not one the
    /// agent answers (it then runs as it does everywhere).
    init?(_ command: ParsableCommand, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let socket = AgentSocket.forwarded(environment),
              command is TokenCommand || command is CookiesCommand || command is GitCredentialCommand
                || command is KubeCredentialCommand || command is DockerCredentialCommand else { return nil }
        self.socket = socket
        self.environment = environment
    }

    func run(_ command: ParsableCommand) async throws {
        switch command {
        case let c as TokenCommand: try token(c)
        case let c as CookiesCommand: try cookies(c)
        case let c as GitCredentialCommand: try await git(c)
        case let c as KubeCredentialCommand: try kube(c)
        case let c as DockerCredentialCommand: try await docker(c)
        default: preconditionFailure("RemoteMode for \(type(of: command))")
        }
    }

    func token(_ c: TokenCommand) throws {
        let shape = try c.shape()
        let answer = try client("token", option: c.timeout).ask("token", [("account", c.account)] + c.scope.map { ("scope", $0) })
        guard let value = answer["access_token"], !value.isEmpty else { throw CLIError.failure("the agent at \(socket) answered without a token") }
        let context = DeckContext(c.global, environment: environment)
        let token = AccessToken(id: "", value: Secret(value), scopes: answer.values("scope"), tokenType: answer["token_type"] ?? "Bearer",
                                obtainedAt: context.clock.now(), expiresAt: answer.expiresAt)
        let account = Account(id: answer["account"] ?? c.account, providerId: answer["provider"] ?? "", subject: "",
                              username: answer["username"] ?? "", realm: answer["realm"], createdAt: context.clock.now())
        try TokenCommand.write(token, of: account, shape: shape, context: context)
    }

    /// Only a Cookie header crosses the socket (the cookies' domains, paths and expiries stay
    /// with the agent), so the jar and the JSON forms are refused before anything is asked.
    func cookies(_ c: CookiesCommand) throws {
        guard !c.json, c.format == .header else {
            throw CLIError.usage("""
                through the authdeck agent (\(AgentSocket.variable)) cookies travel as one Cookie header, without their domains, \
                paths and expiries, so there is no \(c.json ? "--json" : "jar") here: use `authdeck cookies \(TerminalText.inert(c.account)) --format header`
                """)
        }
        let answer = try client("cookies", option: c.timeout).ask("cookies", [("account", c.account)])
        guard let header = answer["cookie_header"], !header.isEmpty, !header.contains(where: { $0 == "\n" || $0 == "\r" }) else {
            throw CLIError.failure("the agent at \(socket) answered without a usable Cookie header")
        }
        output.raw("Cookie: " + header + "\n")
    }

    func git(_ c: GitCredentialCommand) async throws {
        // store and erase change nothing (and open nothing): the command's own answer.
        guard c.operation == "get" else { return try await c.run() }
        let request = GitCredentialRequest.read(from: input.readToEnd())
        guard let url = request.url else { return }
        // Refused here, before anything is asked, as the agent refuses them (`CredentialRouting`).
        if let climb = CredentialRouting.climbReason(url) {
            return output.error("git-credential for \(TerminalText.inert(url)): \(climb); nothing was given to git")
        }
        if let refusal = SecretDestination.refusal(.accessToken, to: url) {
            return output.error("git-credential for \(TerminalText.inert(url)): \(refusal); nothing was given to git")
        }
        let answer = try client("git-credential").ask("git", [("url", url)])
        guard answer["status"] == "ok" else { return }  // no route covers it: git asks its next helper
        guard let text = GitCredentialRequest.answer(username: answer["username"] ?? "", token: answer["password"] ?? "", expiresAt: answer.expiresAt) else {
            return output.error("git-credential for \(TerminalText.inert(url)): the username or token holds a line break; nothing was given to git")
        }
        output.raw(text)
    }

    func kube(_ c: KubeCredentialCommand) throws {
        let info = KubeExecInfo(environment["KUBERNETES_EXEC_INFO"])
        if let server = info.server, let refusal = SecretDestination.refusal(.accessToken, to: server) {
            throw CLIError.failure("kube-credential for \(TerminalText.inert(server)): \(refusal); nothing was given to kubectl")
        }
        let answer = try client("kube-credential").ask("kube", [("account", c.account)] + c.scope.map { ("scope", $0) })
        guard let token = answer["access_token"], !token.isEmpty else { throw CLIError.failure("the agent at \(socket) answered without a token") }
        output.raw(try KubeCredentialCommand.execCredential(token: token, expiresAt: answer.expiresAt, apiVersion: info.apiVersion))
    }

    func docker(_ c: DockerCredentialCommand) async throws {
        switch c.operation {
        case "get": break
        case "list":
            // The agent's docker routes, as `list` names local ones.
            return output.raw(try DockerCredentialCommand.listJSON(Self.routes(client("docker-credential"))))
        default: return try await c.run()  // store, erase and a usage error open nothing
        }
        let input = String(decoding: input.readToEnd().prefix(64 << 10), as: UTF8.self)
        let server = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if let refusal = CredentialRouting.transportRefusal(server) { throw CLIError.failure(refusal) }
        let answer = try client("docker-credential").ask("docker", [("server", server)])
        guard answer["status"] == "ok", let secret = answer["secret"] else {
            // What docker's helpers say when they hold nothing for the registry.
            output.raw(DockerCredentialCommand.notFound)
            throw ExitCode(1)
        }
        output.raw(try DockerCredentialCommand.answerJSON(server: answer["server_url"] ?? server, username: answer["username"] ?? "", secret: secret))
    }

    /// The client for `what`, waiting `--timeout` (token, cookies) or `AUTHDECK_AGENT_TIMEOUT`.
    func client(_ what: String, option: String? = nil) throws -> AgentClient {
        try Self.client(socket, what, option: option, environment: environment)
    }

    static func client(_ socket: String, _ what: String, option: String?, environment: [String: String]) throws -> AgentClient {
        let span: TimeSpan
        if let option {
            guard let given = TimeSpan(parsing: option) else { throw CLIError.usage("--timeout \(TerminalText.inert(option)) is not a time span (like 90s, 2m or 1h)") }
            span = given
        } else {
            guard let given = AgentClient.timeout(environment) else {
                throw CLIError.usage("\(AgentClient.timeoutVariable)=\(TerminalText.inert(environment[AgentClient.timeoutVariable] ?? "")) is not a time span (like 90s, 2m or 1h)")
            }
            span = given
        }
        return AgentClient(path: socket, timeout: Double(span.seconds), client: what)
    }
}

extension RemoteMode {
    /// The agent's `[[credential]]` routes (`op=routes`) when `AUTHDECK_AGENT` is set, else nil:
    /// what `setup-git` configures on a machine that has no config.toml of its own.
    static func routes(_ environment: [String: String]) throws -> [CredentialRoute]? {
        guard let socket = AgentSocket.forwarded(environment) else { return nil }
        return try routes(client(socket, "setup", option: nil, environment: environment))
    }

    /// Reads the `routes` answer: each `url=` starts a route; the `kind=` (git, docker or acr),
    /// `account=` and `scopes=` (space-separated) after it belong to it.
    static func routes(_ client: AgentClient) throws -> [CredentialRoute] {
        let answer = try client.ask("routes", [])
        var routes: [CredentialRoute] = []
        for field in answer.fields {
            if field.key == "url" { routes.append(CredentialRoute(url: field.value, account: "")); continue }
            guard !routes.isEmpty else { continue }
            switch field.key {
            case "kind": routes[routes.count - 1].registry = field.value == "git" ? nil : field.value
            case "account": routes[routes.count - 1].account = field.value
            case "scopes": routes[routes.count - 1].scopes = field.value.split(separator: " ").map(String.init)
            default: continue
            }
        }
        return routes
    }
}
