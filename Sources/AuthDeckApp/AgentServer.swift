#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckPlatform

/// Serves an `AgentListener`: each connection on a task of its own, at most
/// `maxConnections` at once and `maxPerPeer` from one process, one request and one answer
/// each (docs/agent.md).
///
/// Why so guarded: the socket is forwarded to machines the person does not control. Every
/// peer's uid is checked (`SO_PEERCRED`); a request must arrive whole within `frameTimeout`;
/// a malformed or huge frame gets one `failed` answer and the connection is closed; reads and
/// writes block a thread of their own, never the cooperative pool, so a peer that holds its
/// socket open costs one thread until its deadline and everyone else is answered meanwhile.
///
/// `op=session` (main socket only) makes a session socket beside the main one, tied to the
/// host the person typed, served until the asking connection hangs up; its "connection"
/// grants end then (`AgentPolicy.endSession`).
public final class AgentServer: Sendable {
    public static let maxConnections = 32
    /// The most one peer process may hold at once: connections forwarded by one `ssh -R` all
    /// come from that ssh, so a host that opens and holds many cannot take every slot.
    public static let maxPerPeer = 16
    /// How long a peer has to send its whole request.
    public static let frameTimeout = 10.0
    /// Where the server's tasks run (`AgentThreads`): shared by every server of the process.
    static let threads = AgentThreads()

    let listener: AgentListener
    let service: AgentService
    /// For a session's server: the host the person typed and the session's id.
    let sessionHost: String?
    let sessionId: String?
    let state = Mutex(State())

    struct State {
        var stopped = false
        var active = 0
        /// Connections being answered per peer pid (`SO_PEERCRED`).
        var perPeer: [Int32: Int] = [:]
        var sessions: [String: AgentServer] = [:]
    }

    /// The server of `listener` (the main socket: hosts are as they claim).
    public convenience init(listener: AgentListener, service: AgentService) {
        self.init(listener: listener, service: service, sessionHost: nil, sessionId: nil)
    }

    init(listener: AgentListener, service: AgentService, sessionHost: String?, sessionId: String?) {
        self.listener = listener
        self.service = service
        self.sessionHost = sessionHost
        self.sessionId = sessionId
    }

    /// The socket's path.
    public var path: String { listener.path }

    /// Runs `run()` on the server's own threads and returns its task: what a caller whose
    /// own task may sit on a busy shared pool (the deck, a test) starts it with.
    @discardableResult
    public func start() -> Task<Void, Never> {
        Task.detached(executorPreference: Self.threads) { [self] in await run() }
    }

    /// Accepts and answers until `stop()`; then closes the listener (removing its socket file)
    /// and ends every session. Connections in flight finish on their own deadlines.
    public func run() async {
        await withTaskExecutorPreference(Self.threads) { await accepting() }
    }

    func accepting() async {
        // One thread waits in accept for the server's life (a fifth of a second at a time, to
        // see `stop()`); each connection it takes is answered on a task of its own.
        await Self.blocking { [self] in
            while !isStopped {
                if let connection = listener.accept(timeout: 0.2) { admit(connection) }
            }
        }
        listener.close()
        for session in state.withLock({ Array($0.sessions.values) }) { session.stop() }
        // Each session's own loop removes its socket and its entry within a second: waited
        // for, so no session socket outlives the agent that made it.
        let until = ContinuousClock.now + .seconds(3)
        while state.withLock({ !$0.sessions.isEmpty }), ContinuousClock.now < until {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Answers `connection` on a task of its own, or tells it the agent is busy: past
    /// `maxConnections` at once, or `maxPerPeer` from its process.
    func admit(_ connection: AgentConnection) {
        let peer = connection.peerPID() ?? -1
        let refusal = state.withLock { state -> String? in
            if state.stopped || state.active >= Self.maxConnections { return "the agent is busy (\(Self.maxConnections) requests at once); try again" }
            if state.perPeer[peer, default: 0] >= Self.maxPerPeer {
                return "the agent is busy: this connection's process already has \(Self.maxPerPeer) requests open; try again"
            }
            state.active += 1
            state.perPeer[peer, default: 0] += 1
            return nil
        }
        if let refusal {
            Task.detached(executorPreference: Self.threads) {
                await Self.blocking {
                    // Read first: closing over its unread request would reset the peer.
                    _ = try? connection.receive(timeout: 1)
                    try? connection.send(AgentService.failure(.failed, refusal, exit: ExitStatus.transient), timeout: 1)
                    connection.close()
                }
            }
            return
        }
        Task.detached(executorPreference: Self.threads) { [self] in
            await serve(connection)
            state.withLock { state in
                state.active -= 1
                state.perPeer[peer, default: 1] -= 1
                if state.perPeer[peer] == 0 { state.perPeer[peer] = nil }
            }
        }
    }

    /// Asks `run()` to end (within a fifth of a second).
    public func stop() {
        state.withLock { $0.stopped = true }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// How many connections are being answered now.
    public var activeConnections: Int { state.withLock { $0.active } }

    /// One connection: the peer checked, its request read whole, answered, closed.
    func serve(_ connection: AgentConnection) async {
        let uid = connection.peerUID()
        let pid = connection.peerPID()
        let peerUid = uid.map { UInt32($0) }
        if uid != getuid() {
            let shown = uid.map { String($0) } ?? "unknown"
            // Its request is read (and dropped) first: closing over unread bytes resets the
            // connection, and the peer would see "reset" instead of why.
            _ = await Self.blocking { try? connection.receive(timeout: 1) }
            let peer = AgentPeer(host: sessionHost ?? "local socket", hostClaimed: sessionHost == nil, session: sessionId, pid: pid, uid: peerUid)
            service.recordRefusal(peer, op: "", reason: "another user (uid \(shown)) connected to the agent's socket; refused by SO_PEERCRED")
            await Self.blocking {
                try? connection.send(AgentService.failure(.refused, "this agent answers only its own user (uid \(getuid())), not uid \(shown)", exit: ExitStatus.needsSignIn), timeout: 1)
                connection.close()
            }
            return
        }
        let received: Result<AgentMessage, AgentSocketError> = await Self.blocking {
            do throws(AgentSocketError) { return .success(try connection.receive(timeout: Self.frameTimeout)) } catch { return .failure(error) }
        }
        let request: AgentMessage
        switch received {
        case .success(let message): request = message
        case .failure(.closed):
            return connection.close()
        case .failure(let error):
            let why: String
            switch error {
            case .timedOut: why = "no whole request arrived within \(Int(Self.frameTimeout)) s"
            case .malformed(let malformed): why = "the request could not be read: \(malformed)"
            default: why = "the request could not be read: \(error)"
            }
            await Self.blocking {
                try? connection.send(AgentService.failure(.failed, why, exit: ExitStatus.usage), timeout: 1)
                connection.close()
            }
            return
        }
        if request["op"] == "session", sessionId == nil {
            return await openSession(request, on: connection, pid: pid, uid: peerUid)
        }
        let peer = sessionHost.map { AgentPeer(host: $0, hostClaimed: false, session: sessionId, pid: pid, uid: peerUid) }
            ?? AgentPeer.claimed(by: request, pid: pid, uid: peerUid)
        let answer = await service.answer(request, from: peer)
        // The client waits its timeout plus 2 s; past that nobody reads the answer.
        await Self.blocking {
            try? connection.send(answer, timeout: 5)
            connection.close()
        }
    }

    /// `op=session`: a socket of its own for the host the person typed, alive while `connection`
    /// stays open.
    func openSession(_ request: AgentMessage, on connection: AgentConnection, pid: Int32?, uid: UInt32?) async {
        guard let host = request["host"]?.trimmingWhitespace(), !host.isEmpty, host.count <= 255,
              !host.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == " " }) else {
            await Self.blocking {
                try? connection.send(AgentService.failure(.failed, "op=session needs host= (the host as typed to `authdeck ssh`, no spaces)", exit: ExitStatus.usage), timeout: 1)
                connection.close()
            }
            return
        }
        let id = Self.sessionIdentifier()
        let directory = listener.path.lastIndex(of: "/").map { String(listener.path[..<$0]) } ?? "."
        let path = directory + "/session-\(id).sock"
        let sessionListener: AgentListener
        do throws(AgentSocketError) {
            sessionListener = try AgentSocket.listen(path)
        } catch {
            await Self.blocking {
                try? connection.send(AgentService.failure(.failed, "the agent could not open a session socket: \(error)", exit: ExitStatus.failure), timeout: 1)
                connection.close()
            }
            return
        }
        let session = AgentServer(listener: sessionListener, service: service, sessionHost: String(host), sessionId: id)
        state.withLock { $0.sessions[id] = session }
        let serving = Task.detached(executorPreference: Self.threads) { await session.run() }
        let sent: Bool = await Self.blocking {
            do throws(AgentSocketError) {
                try connection.send(AgentMessage([("status", "ok"), ("socket", path), ("session", id)]), timeout: 5)
                return true
            } catch { return false }
        }
        if sent {
            // The session lives as long as the `authdeck ssh` that asked for it: one thread
            // watches the connection (half a second at a time, to see either server stop).
            await Self.blocking { [self] in
                while !isStopped && !session.isStopped {
                    if Self.hungUp(connection, within: 0.5) { break }
                }
            }
        }
        session.stop()
        await serving.value
        state.withLock { _ = $0.sessions.removeValue(forKey: id) }
        await service.policy.endSession(id)
        connection.close()
    }

    /// Whether the peer hung up within `seconds`; bytes it sends meanwhile are read and dropped
    /// (a session connection carries nothing after its answer), so they cannot spin this loop.
    static func hungUp(_ connection: AgentConnection, within seconds: Double) -> Bool {
        if connection.waitForHangUp(timeout: seconds) { return true }
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)
    }

    /// 16 random hex digits: a session's name in its socket's path.
    static func sessionIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Runs a blocking call on a thread of its own: the agent's socket calls wait in `poll` up
    /// to their deadlines, and the cooperative pool has only as many threads as cores.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 512 << 10
            thread.start()
        }
    }
}
