import Testing
import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// `AgentServer` on a real Unix socket: hostile peers (garbage, a 4 GiB length, half a frame
/// held open, another user) get one clean answer or none, and the agent answers others
/// meanwhile; a session lives exactly as long as the connection that asked for it.
@Suite struct AgentServerTests {
    let fixture = AgentServiceTests()
    /// Each test's blocking client calls wait on threads of its own (`ThreadExecutor`), not the
    /// shared pool other suites' tasks need, nor a queue another test's 10-second wait holds.
    let executor = ThreadExecutor(label: "authdeck.agent-server-test")

    /// A running server over the fixture's store, its socket in a directory of its own.
    func start(confirmer: (any AgentConfirming)? = nil, allows: [AgentAllow] = [AgentAllow(host: "*", accounts: ["work"])]) throws
        -> (AgentServer, Task<Void, Never>, ProviderWiring, AgentPolicy) {
        let (wiring, config) = try fixture.setUp()
        let policy = AgentPolicy(allows: allows, confirmer: confirmer)
        let listener = try AgentSocket.listen(fixture.dir.file("agent/agent.sock"))
        let server = AgentServer(listener: listener, service: AgentService(wiring: wiring, config: config, policy: policy))
        let task = server.start()
        return (server, task, wiring, policy)
    }

    /// One request and its answer, as a client would.
    func ask(_ path: String, _ pairs: [(String, String)]) throws -> AgentMessage {
        let connection = try AgentSocket.connect(path, timeout: 2)
        defer { connection.close() }
        try connection.send(AgentMessage(pairs), timeout: 2)
        return try connection.receive(timeout: 5)
    }

    /// Raw bytes on a new connection, left open.
    func raw(_ path: String, _ bytes: [UInt8]) throws -> AgentConnection {
        let connection = try AgentSocket.connect(path, timeout: 2)
        let n = bytes.withUnsafeBytes { Foundation.send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #expect(n == bytes.count)
        return connection
    }

    func token(_ path: String) throws -> AgentMessage {
        try ask(path, [("op", "token"), ("account", "work/a0"), ("host", "laptop-test")])
    }

    @Test func garbageAndAHugeLengthGetOneFailedAnswerNamingWhatWasWrong() async throws {
        try await withTaskExecutorPreference(executor) {
            let (server, task, _, _) = try start()
            defer { server.stop() }
            let garbage = try raw(server.path, [0, 0, 0, 12] + Array("no equals\n\n\n".utf8))
            let answer = try garbage.receive(timeout: 5)
            garbage.close()
            #expect(answer["status"] == "failed" && answer["message"]?.contains("line 1 has no `=`") == true, "\(answer)")
            let huge = try raw(server.path, [0xFF, 0xFF, 0xFF, 0xFF])
            let refused = try huge.receive(timeout: 5)
            huge.close()
            #expect(refused["status"] == "failed" && refused["message"]?.contains("4294967295 bytes") == true, "\(refused)")
            #expect(try token(server.path)["status"] == "ok", "the agent goes on serving")
            server.stop()
            await task.value
            #expect(access(server.path, F_OK) != 0, "stopping removes the socket")
        }
    }

    @Test func halfAFrameHeldOpenCostsItsDeadlineWhileOthersAreAnswered() async throws {
        try await withTaskExecutorPreference(executor) {
            let (server, task, _, _) = try start()
            let holder = try raw(server.path, [0, 0, 0, 100] + Array("op=tok".utf8))
            let started = ContinuousClock.now
            #expect(try token(server.path)["status"] == "ok")
            #expect(ContinuousClock.now - started < .seconds(3), "answered while the other holds its socket")
            let late = try holder.receive(timeout: 15)
            holder.close()
            #expect(late["status"] == "failed" && late["message"]?.contains("within 10 s") == true, "\(late)")
            #expect(ContinuousClock.now - started < .seconds(14), "bounded by the frame deadline")
            server.stop()
            await task.value
        }
    }

    /// A token asked by another process (python; run as another user when `as` names setpriv's
    /// arguments): what a second host's ssh, or another local user, is. Its answer's text.
    func tokenFromAnotherProcess(_ path: String, host: String, as user: [String] = []) throws -> String {
        let script = """
            import socket, struct, sys
            s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1])
            body = ("v=1\\nop=token\\naccount=work/a0\\nhost=%s\\n" % sys.argv[2]).encode()
            s.sendall(struct.pack(">I", len(body)) + body)
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
            sys.stdout.write(data[4:].decode())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: user.isEmpty ? "/usr/bin/python3" : "/usr/bin/setpriv")
        process.arguments = user + (user.isEmpty ? [] : ["/usr/bin/python3"]) + ["-c", script, path, host]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL) } }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// One process (one forwarding ssh) holding connections open fills only its own share: it is
    /// told the agent is busy past `maxPerPeer`, and another process is still answered.
    @Test func aPeerHoldingManyConnectionsIsBoundedAndOthersAreAnswered() async throws {
        try await withTaskExecutorPreference(executor) {
            let (server, task, _, _) = try start()
            defer { server.stop() }
            let held = try (0..<AgentServer.maxPerPeer).map { _ in try raw(server.path, [0, 0, 0, 50] + Array("op=".utf8)) }
            let deadline = ContinuousClock.now + .seconds(5)
            while server.activeConnections < AgentServer.maxPerPeer, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(server.activeConnections == AgentServer.maxPerPeer)
            let busy = try token(server.path)
            #expect(busy["status"] == "failed" && busy["exit"] == "4" && busy["message"]?.contains("already has 16 requests open") == true, "\(busy)")
            let other = try tokenFromAnotherProcess(server.path, host: "second")
            #expect(other.contains("status=ok") && other.contains("access_token=at-secret-0"), "another process is answered: \(other)")
            held.forEach { $0.close() }
            let after = ContinuousClock.now + .seconds(15)
            while server.activeConnections > 0, ContinuousClock.now < after { try await Task.sleep(for: .milliseconds(20)) }
            #expect(try token(server.path)["status"] == "ok", "answered again once the held ones are gone")
            server.stop()
            await task.value
        }
    }

    /// An agent stopped while an `authdeck ssh` session is open removes the session's socket
    /// too (it stayed behind through later agents).
    @Test func stoppingTheAgentRemovesAnOpenSessionsSocket() async throws {
        try await withTaskExecutorPreference(executor) {
            let (server, task, _, _) = try start()
            let asker = try AgentSocket.connect(server.path, timeout: 2)
            defer { asker.close() }
            try asker.send(AgentMessage([("op", "session"), ("host", "build7")]), timeout: 2)
            let opened = try asker.receive(timeout: 5)
            let socket = try #require(opened["socket"])
            #expect(access(socket, F_OK) == 0)
            server.stop()
            await task.value
            #expect(access(server.path, F_OK) != 0)
            #expect(access(socket, F_OK) != 0, "the session's socket went with the agent")
        }
    }

    @Test func anotherUserIsRefusedBySOPeerCredWhateverTheFileModeSays() async throws {
        try await withTaskExecutorPreference(executor) {
            let (server, task, wiring, _) = try start()
            defer { server.stop() }
            // Open the directory and the socket to everyone: only SO_PEERCRED stands in the way.
            #expect(chmod(fixture.dir.path, 0o711) == 0 && chmod(fixture.dir.file("agent"), 0o711) == 0 && chmod(server.path, 0o666) == 0)
            let text = try tokenFromAnotherProcess(server.path, host: "intruder", as: ["--reuid=65534", "--regid=65534", "--clear-groups"])
            #expect(text.contains("status=refused") && text.contains("uid 65534"), "\(text)")
            #expect(!text.contains("at-secret"))
            let events = try wiring.store.events(since: nil, accountId: nil, kinds: [.agentRefused], limit: nil)
            let handOut = try #require(events.last.flatMap { AgentHandOut(detail: $0.detail) })
            #expect(handOut.peerUid == 65534 && handOut.reason.contains("SO_PEERCRED"), "\(events)")
            #expect(try token(server.path)["status"] == "ok", "its own user is still answered")
            server.stop()
            await task.value
        }
    }

    @Test func aSessionLivesWhileItsAskerStaysAndItsGrantsEndWithIt() async throws {
        try await withTaskExecutorPreference(executor) {
            let person = AgentServiceTests.Scripted(.connection)
            let (server, task, wiring, policy) = try start(confirmer: person, allows: [])
            defer { server.stop() }
            let asker = try AgentSocket.connect(server.path, timeout: 2)
            try asker.send(AgentMessage([("op", "session"), ("host", "build9")]), timeout: 2)
            let opened = try asker.receive(timeout: 5)
            let socket = try #require(opened["socket"], "\(opened)")
            let session = try #require(opened["session"])
            #expect(opened["status"] == "ok" && socket.hasSuffix("/session-\(session).sock"))
            let first = try ask(socket, [("op", "token"), ("account", "work/a0"), ("host", "claims-another-name")])
            let second = try ask(socket, [("op", "token"), ("account", "work/a0")])
            #expect(first["status"] == "ok" && second["status"] == "ok", "\(first) \(second)")
            #expect(person.count == 1, "the connection grant covers the session's second request")
            #expect(person.asked.withLock { $0.first?.host } == "build9", "the session's host is the one typed, not the claim")
            #expect(await policy.hasGrant(session: session, accountId: "work/a0"))
            let events = try wiring.store.events(since: nil, accountId: nil, kinds: [.agentAnswered], limit: nil).compactMap { AgentHandOut(detail: $0.detail) }
            #expect(events.allSatisfy { $0.host == "build9" && !$0.hostClaimed && $0.session == session })
            asker.close()
            let deadline = ContinuousClock.now + .seconds(5)
            while access(socket, F_OK) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(access(socket, F_OK) != 0, "the session's socket is gone once its asker hung up")
            var granted = true
            while granted, ContinuousClock.now < deadline {
                granted = await policy.hasGrant(session: session, accountId: "work/a0")
                if granted { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(!granted, "its grant ended with it")
            #expect(throws: AgentSocketError.self) { try AgentSocket.connect(socket, timeout: 1) }
            server.stop()
            await task.value
        }
    }
}
