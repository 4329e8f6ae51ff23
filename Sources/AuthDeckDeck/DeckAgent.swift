import Foundation
import AuthDeckCore
import AuthDeckApp
import AuthDeckPlatform

/// The open deck as an agent: the agent socket served while the deck is open, hosts' asks
/// confirmed in its window (`DeckAgentConfirmer`), their sign-ins done by the deck
/// (`DeckAgentSignIns`), under the `[[agent]]` allow-list of config.toml.
///
/// Why the deck steps aside for an agent already there: two processes cannot listen on one
/// path, and replacing a live agent's socket would cut off the hosts it serves; the deck says
/// so once and serves nothing.
@MainActor
final class DeckAgent {
    /// The server, while it serves; nil when the deck serves nothing.
    let server: AgentServer?
    /// Why the deck serves nothing, for its status line.
    let notServing: String?
    /// Signalled when the server has stopped and removed its socket.
    private let stopped = DispatchSemaphore(value: 0)

    private init(server: AgentServer?, notServing: String?) {
        self.server = server
        self.notServing = notServing
    }

    /// Listens at `AgentSocket.localPath(environment)` and serves it off the loop.
    static func serve(_ work: DeckWork, environment: [String: String], executor: (any TaskExecutor)?) -> DeckAgent {
        let path = AgentSocket.localPath(environment)
        let listener: AgentListener
        do throws(AgentSocketError) {
            listener = try AgentSocket.listen(path)
        } catch {
            if case .inUse = error {
                return DeckAgent(server: nil, notServing: "An authdeck agent already answers at \(path): this deck serves no hosts.")
            }
            return DeckAgent(server: nil, notServing: "This deck serves no hosts: \(error).")
        }
        let service = AgentService(wiring: work.wiring, config: work.config,
                                   policy: AgentPolicy(allows: work.config.agentAllows, confirmer: work.confirmer), signingIn: work.signIns)
        let server = AgentServer(listener: listener, service: service)
        let agent = DeckAgent(server: server, notServing: nil)
        let stopped = agent.stopped
        Task.detached(executorPreference: executor) {
            await server.run()
            stopped.signal()
        }
        return agent
    }

    /// Stops serving and waits (at most `limit` seconds) until the socket is removed.
    func stop(limit: Double = 3) {
        guard let server else { return }
        server.stop()
        _ = stopped.wait(timeout: .now() + limit)
    }
}
