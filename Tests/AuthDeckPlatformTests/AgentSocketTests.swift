import Testing
#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore
@testable import AuthDeckPlatform

/// The agent's socket on a real file: made 0600 in a 0700 directory, one live agent a path,
/// whole frames both ways, and a peer that stalls or lies about a length bounded.
struct AgentSocketTests {
    func scratch() -> String {
        var template = Array("/tmp/authdeck-agent-test-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        return dir
    }

    @Test func aListenerAnswersAFrameAndChecksItsPeer() throws {
        let dir = scratch()
        defer { rmdir(dir + "/authdeck"); rmdir(dir) }
        let path = dir + "/authdeck/agent.sock"
        let listener = try AgentSocket.listen(path)
        defer { listener.close() }
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(dir + "/authdeck", &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(throws: AgentSocketError.inUse(path)) { try AgentSocket.listen(path) }
        // The second listener's probe reached the live one: it sees a connection that closes.
        listener.accept(timeout: 2)?.close()

        let client = try AgentSocket.connect(path, timeout: 2)
        defer { client.close() }
        guard let server = listener.accept(timeout: 2) else { Issue.record("no connection accepted"); return }
        defer { server.close() }
        #expect(server.peerUID() == getuid())
        #expect(server.peerPID() == getpid())
        try client.send(AgentMessage([("op", "token"), ("account", "work")]), timeout: 2)
        let request = try server.receive(timeout: 2)
        #expect(request["op"] == "token" && request["account"] == "work")
        try server.send(AgentMessage([("status", "ok")]), timeout: 2)
        #expect(try client.receive(timeout: 2)["status"] == "ok")
    }

    @Test func aStalledOrLyingPeerIsBounded() throws {
        let dir = scratch()
        defer { rmdir(dir + "/authdeck"); rmdir(dir) }
        let path = dir + "/authdeck/agent.sock"
        let listener = try AgentSocket.listen(path)
        defer { listener.close() }
        // Half a header, then nothing: a timeout, not a hang.
        let stall = try AgentSocket.connect(path, timeout: 2)
        let server = try #require(listener.accept(timeout: 2))
        _ = [UInt8(0), 0].withUnsafeBytes { send(stall.fd, $0.baseAddress, 2, 0) }
        #expect(throws: AgentSocketError.timedOut("waiting for a whole frame")) { try server.receive(timeout: 0.2) }
        stall.close(); server.close()
        // A length of 4 GiB: refused before any allocation.
        let liar = try AgentSocket.connect(path, timeout: 2)
        let second = try #require(listener.accept(timeout: 2))
        _ = [UInt8(255), 255, 255, 255].withUnsafeBytes { send(liar.fd, $0.baseAddress, 4, 0) }
        #expect(throws: AgentSocketError.malformed(.tooLarge(Int(UInt32.max)))) { try second.receive(timeout: 2) }
        liar.close(); second.close()
        // Cut off inside a body.
        let cut = try AgentSocket.connect(path, timeout: 2)
        let third = try #require(listener.accept(timeout: 2))
        _ = [UInt8(0), 0, 0, 9, 97, 61].withUnsafeBytes { send(cut.fd, $0.baseAddress, 6, 0) }
        cut.close()
        #expect(throws: AgentSocketError.malformed(.truncated)) { try third.receive(timeout: 2) }
        third.close()
    }

    @Test func noAgentIsSaidAtOnceAndAStaleSocketIsReplaced() throws {
        let dir = scratch()
        defer { rmdir(dir + "/authdeck"); rmdir(dir) }
        let path = dir + "/authdeck/agent.sock"
        #expect(throws: AgentSocketError.noAgent(path, ENOENT)) { try AgentSocket.connect(path, timeout: 1) }
        // A dead agent's socket file: the next agent takes the path.
        let first = try AgentSocket.listen(path)
        _ = Glibc.close(first.fd)
        let second = try AgentSocket.listen(path)
        second.close()
        #expect(AgentSocket.localPath(["XDG_RUNTIME_DIR": "/run/user/7"]) == "/run/user/7/authdeck/agent.sock")
        #expect(AgentSocket.localPath(["XDG_RUNTIME_DIR": "/run/user/7", "AUTHDECK_AGENT_SOCKET": "/x/a.sock"]) == "/x/a.sock")
        #expect(AgentSocket.forwarded(["AUTHDECK_AGENT": ""]) == nil)
    }
}
