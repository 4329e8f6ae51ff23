#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore

/// One connection on the agent's socket: whole frames read and written before a deadline.
///
/// Every read is bounded in time and size, so a peer that sends half a frame, a huge length or
/// nothing at all costs the agent one timeout and one small buffer, never a hang.
public struct AgentConnection: Sendable {
    public let fd: Int32

    public init(fd: Int32) {
        self.fd = fd
    }

    /// The peer's user id (`SO_PEERCRED`): what the kernel says, not what the peer claims.
    public func peerUID() -> uid_t? {
        peerCredentials().map { uid_t(bitPattern: $0.uid) }
    }

    /// The peer's process id (`SO_PEERCRED`), for the events.
    public func peerPID() -> pid_t? {
        peerCredentials().map { $0.pid }
    }

    /// Linux's `struct ucred` (pid, uid, gid: three 32-bit fields), which Glibc's module hides
    /// behind _GNU_SOURCE.
    func peerCredentials() -> (pid: Int32, uid: Int32)? {
        var fields: (Int32, Int32, Int32) = (0, -1, -1)
        var length = socklen_t(MemoryLayout<(Int32, Int32, Int32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &fields, &length) == 0, length == 12 else { return nil }
        return (fields.0, fields.1)
    }

    /// Sends one message; `timedOut` when the peer stops reading.
    public func send(_ message: AgentMessage, timeout: Double) throws(AgentSocketError) {
        let bytes: [UInt8]
        do { bytes = try message.frame() } catch { throw .malformed(error) }
        let deadline = Self.deadline(after: timeout)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            if n > 0 { sent += n; continue }
            let code = errno
            if n < 0, code == EINTR { continue }
            if n < 0, code == EAGAIN {
                guard wait(for: Int16(POLLOUT), until: deadline) else { throw .timedOut("sending to the agent's peer") }
                continue
            }
            throw code == EPIPE || code == ECONNRESET ? .closed : .system("send", code)
        }
    }

    /// Reads one whole message; `closed` when the peer hung up before its first byte,
    /// `timedOut` when the frame did not arrive whole in time, `malformed` for a bad frame.
    public func receive(timeout: Double) throws(AgentSocketError) -> AgentMessage {
        let deadline = Self.deadline(after: timeout)
        let header = try read(4, until: deadline, atStart: true)
        let length: Int
        do { length = try AgentMessage.bodyLength(header: header) } catch { throw .malformed(error) }
        let body = try read(length, until: deadline, atStart: false)
        do { return try AgentMessage.parse(body: body) } catch { throw .malformed(error) }
    }

    /// Waits until the peer hangs up or `timeout` passes; true when it hung up. What a
    /// session's keeper does while the connection it answers for stays open.
    public func waitForHangUp(timeout: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32(max(0, min(timeout * 1000, Double(Int32.max))))
        let ready = poll(&entry, 1, ms)
        guard ready > 0 else { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)
    }

    public func close() {
        _ = Glibc.close(fd)
    }

    func read(_ count: Int, until deadline: timespec, atStart: Bool) throws(AgentSocketError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = out[got...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { got += n; continue }
            if n == 0 {
                if atStart && got == 0 { throw .closed }
                throw .malformed(.truncated)
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN else { throw code == ECONNRESET ? .closed : .system("recv", code) }
            guard wait(for: Int16(POLLIN), until: deadline) else { throw .timedOut("waiting for a whole frame") }
        }
        return out
    }

    /// Polls for `events` until `deadline`; false when it passed first.
    func wait(for events: Int16, until deadline: timespec) -> Bool {
        while true {
            let left = Self.millisecondsLeft(deadline)
            guard left > 0 else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, left)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return false }
        }
    }

    static func deadline(after seconds: Double) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let clamped = max(0, min(seconds, 86_400 * 365))
        let whole = Int(clamped)
        var nanos = now.tv_nsec + Int((clamped - Double(whole)) * 1e9)
        var secs = now.tv_sec + whole
        if nanos >= 1_000_000_000 { nanos -= 1_000_000_000; secs += 1 }
        return timespec(tv_sec: secs, tv_nsec: nanos)
    }

    static func millisecondsLeft(_ deadline: timespec) -> Int32 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let ms = (deadline.tv_sec - now.tv_sec) * 1000 + (deadline.tv_nsec - now.tv_nsec) / 1_000_000
        return Int32(max(0, min(ms, Int(Int32.max))))
    }
}

/// A listening agent socket; `close` removes the socket file it made.
public struct AgentListener: Sendable {
    public let fd: Int32
    public let path: String

    /// The next connection, or nil when `timeout` passed with none (so the caller can look at
    /// whether it should stop) or the listener was closed.
    public func accept(timeout: Double) -> AgentConnection? {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32(max(0, min(timeout * 1000, Double(Int32.max))))
        guard poll(&entry, 1, ms) > 0 else { return nil }
        let client = Glibc.accept(fd, nil, nil)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        return AgentConnection(fd: client)
    }

    public func close() {
        unlink(path)
        _ = Glibc.close(fd)
    }
}
