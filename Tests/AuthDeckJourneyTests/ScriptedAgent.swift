import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore
import AuthDeckPlatform

/// A stand-in authdeck agent on a real Unix socket, for the remote side's tests: it answers
/// each request with what the test scripted for its op, records every request, and can be
/// made to hold a connection without answering or to go away.
///
/// Why not the real agent: these tests pin the client's side of docs/agent.md (what it sends,
/// what it prints of each status) without a store, a provider or a person to confirm; the
/// journey through real sshd (`RemoteSSHJourneyTests`) runs the real `authdeck agent`.
final class ScriptedAgent: Sendable {
    struct State {
        var answers: [String: AgentMessage] = [:]
        var requests: [AgentMessage] = []
        var silent = false
        var held: [AgentConnection] = []
        var stopped = false
    }

    let path: String
    let listener: AgentListener
    let state = Mutex(State())
    let done = Mutex(false)

    init(path: String) throws {
        self.path = path
        listener = try AgentSocket.listen(path)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The answer to every later request of `op` (`v=1` first).
    func answer(_ op: String, _ fields: [(String, String)]) {
        state.withLock { $0.answers[op] = AgentMessage(fields) }
    }

    /// Whether requests are read and then left unanswered (the connection held open).
    func hold(_ silent: Bool) {
        state.withLock { $0.silent = silent }
    }

    var requests: [AgentMessage] { state.withLock { $0.requests } }

    /// Stops serving, closes what it holds and removes the socket; returns once the loop has ended.
    func stop() {
        let first = state.withLock { s in
            defer { s.stopped = true }
            return !s.stopped
        }
        guard first else { return }
        let deadline = Date().addingTimeInterval(5)
        while !done.withLock({ $0 }), Date() < deadline { usleep(10_000) }
        state.withLock { s in
            s.held.forEach { $0.close() }
            s.held = []
        }
        listener.close()
    }

    func serve() {
        while !state.withLock({ $0.stopped }) {
            guard let connection = listener.accept(timeout: 0.05) else { continue }
            guard let request = try? connection.receive(timeout: 5) else { connection.close(); continue }
            let reply: AgentMessage? = state.withLock { s in
                s.requests.append(request)
                if s.silent { s.held.append(connection); return nil }
                return s.answers[request["op"] ?? ""] ?? AgentMessage([("status", "failed"), ("message", "no scripted answer"), ("exit", "1")])
            }
            guard let reply else { continue }
            try? connection.send(reply, timeout: 5)
            connection.close()
        }
        done.withLock { $0 = true }
    }

    deinit { stop() }
}
