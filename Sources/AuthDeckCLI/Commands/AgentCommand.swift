import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckApp
import AuthDeckPlatform
import AuthDeckTerminal

/// `authdeck agent`: answers hosts reached over SSH through a Unix socket (docs/agent.md), in
/// the foreground until Ctrl-C or SIGTERM, which remove the socket.
///
/// Who confirms a host's first request for an account: the person on this terminal
/// (`/dev/tty`: once, for this connection, or deny) when there is one and `--no-input` was not
/// given; else `[agent_confirm] command` from config.toml; else the `[[agent]]` allow-list
/// alone. A sign-in a request needs shows its device code or opens the browser here.
struct AgentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent", abstract: "Answer hosts reached over SSH for tokens and cookie headers, through a Unix socket.",
        discussion: """
            Listens at $AUTHDECK_AGENT_SOCKET, else $XDG_RUNTIME_DIR/authdeck/agent.sock, else /tmp/authdeck-UID/agent.sock \
            (a 0700 directory, a 0600 socket; another user's connection is refused by SO_PEERCRED). Only access tokens, \
            cookie headers and the answers git, kubectl and docker read cross the socket. Each host's first request for an \
            account is confirmed here, by [agent_confirm] command, or allowed by an [[agent]] entry; every answer and refusal \
            is an event (`authdeck events`). See docs/agent.md and authdeck(1).
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let config = try context.loadConfig()
        let store = try context.openStore()
        let path = AgentSocket.localPath(context.environment)
        let confirmer: (any AgentConfirming)?
        let asking: String
        if !context.noInput, let terminal = TerminalConfirmer.open() {
            (confirmer, asking) = (terminal, "asking on this terminal")
        } else if let command = config.agentConfirmCommand, let argv = CommandWords.split(command), !argv.isEmpty {
            (confirmer, asking) = (CommandConfirmer(argv: argv, environment: ChildEnvironment.scrubbed(context.environment, providers: config.providers)),
                                   "asking \(TerminalText.inert(argv[0]))")
        } else {
            (confirmer, asking) = (nil, "no one to ask: the [[agent]] allow-list alone decides")
        }
        let listener: AgentListener
        do throws(AgentSocketError) {
            listener = try AgentSocket.listen(path)
        } catch {
            if case .inUse = error { throw CLIError(message: "an authdeck agent already answers at \(path); one is enough (stop it first)", status: 1) }
            throw CLIError(message: "cannot listen at \(path): \(error)", status: 1)
        }
        let wiring = context.wiring(store)
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: config.agentAllows, confirmer: confirmer),
                                   signingIn: TerminalSignIn(context: context, config: config, store: store, enabled: !context.noInput))
        let server = AgentServer(listener: listener, service: service)
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { server.stop() }
            source.resume()
            sources.append(source)
        }
        defer { sources.forEach { $0.cancel() } }
        let allows = config.agentAllows.count
        context.output.note("authdeck agent: listening at \(path); \(allows) [[agent]] entr\(allows == 1 ? "y" : "ies"), \(asking). "
                            + "Remote: ssh -R REMOTE_PATH:\(path) HOST, then AUTHDECK_AGENT=REMOTE_PATH there. Ctrl-C stops.")
        await server.run()
        context.output.note("authdeck agent: stopped; \(path) removed.")
    }
}
