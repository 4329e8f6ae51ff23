import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot HTTP listener on 127.0.0.1 that receives an authorization redirect.
///
/// RFC 8252: listen on the loopback interface only, on an ephemeral port unless a fixed one
/// is configured, and only for the duration of the request. It answers the browser with a
/// small page, ignores stray requests (favicon), and returns the first request whose path
/// matches and whose `state` is the sign-in's. Nothing it reads is logged.
///
/// Why a wrong `state` does not end the wait: any local process can reach the port, so one
/// forged `GET /callback?state=x` would otherwise end the person's sign-in. Such a redirect is
/// answered with a page saying so, counted, and the wait goes on until the right one or the
/// timeout. Why connections are served together (one `poll` over all of them): an idle
/// connection — a browser's speculative one, or a local process holding one open — must not
/// hold up the right redirect behind it.
// @unchecked: a C boundary — it owns a socket fd; only the waiting call uses it, `close` ends it.
public final class LoopbackListener: @unchecked Sendable {
    public let port: UInt16
    public let path: String
    private let fd: Int32

    /// How long one connection may take to send its request head.
    static let headTimeout: Double = 5
    /// Connections served at once; past it the oldest is closed (an idle one, most likely).
    static let maxConnections = 32

    /// A problem with the loopback listener, worded for a person.
    public struct ListenerError: Error, CustomStringConvertible, Equatable {
        public let description: String
        /// Redirects to the path that carried the wrong `state` and were ignored.
        public var ignored: Int = 0
        /// The wait ran out (the caller words it with its `--timeout`: `SignInTimeout`).
        public var timedOut = false
    }

    /// Binds 127.0.0.1:`port` (0: ephemeral).
    public init(port: UInt16 = 0, path: String = "/callback") throws {
        self.path = path
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard sock >= 0 else { throw ListenerError(description: "cannot create a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(sock, 16) == 0 else {
            let why = String(cString: strerror(errno))
            close(sock)
            throw ListenerError(description: "cannot listen on 127.0.0.1:\(port) for the sign-in redirect: \(why)")
        }
        var actual = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(sock, $0, &len) }
        }
        _ = fcntl(sock, F_SETFL, fcntl(sock, F_GETFL) | O_NONBLOCK)
        self.fd = sock
        self.port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { close(fd) }

    /// One accepted connection whose request head is still arriving.
    struct Connection {
        let fd: Int32
        let since: Date
        var head: [UInt8] = []
    }

    /// Waits for the redirect carrying `state` and returns its query parameters; `respond`
    /// chooses the page shown in the browser from them. A redirect with another (or no)
    /// `state` is answered with a page saying so and ignored. Throws on timeout (the error
    /// counts the ignored redirects) or task cancellation.
    public func awaitRedirect(timeout: Double, state: String,
                              respond: @Sendable ([String: String]) -> (status: Int, html: String)) async throws -> [String: String] {
        let deadline = Date().addingTimeInterval(timeout)
        var connections: [Connection] = []
        var ignored = 0
        defer { for c in connections { close(c.fd) } }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            try Task.checkCancellation()
            let now = Date()
            if now > deadline {
                let note = ignored == 0 ? "" : "; \(ignored) redirect\(ignored == 1 ? "" : "s") with the wrong state (not from this sign-in) \(ignored == 1 ? "was" : "were") ignored"
                throw ListenerError(description: "no sign-in redirect arrived within \(Int(timeout)) s\(note)", ignored: ignored, timedOut: true)
            }
            // A connection that has not sent its request head in time is dropped.
            connections.removeAll { c in
                guard now.timeIntervalSince(c.since) > Self.headTimeout else { return false }
                close(c.fd)
                return true
            }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            fds += connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 200) > 0 else { continue }
            // Heads first, in the order they arrived; then new connections.
            var finished: [Int] = []
            for index in connections.indices where fds[index + 1].revents != 0 {
                let n = read(connections[index].fd, &chunk, chunk.count)
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n > 0 { connections[index].head += chunk[0..<n] }
                let head = connections[index].head
                let complete = Self.headEnds(head)
                guard n <= 0 || complete || head.count >= 16_384 else { continue }
                finished.append(index)
                let client = connections[index].fd
                guard complete, let target = Self.requestTarget(head) else { continue }
                let (reqPath, query) = split(target)
                guard reqPath == path else {
                    reply(client, status: 404, html: "<p>Not found.</p>")
                    continue
                }
                let params = Dictionary(FormEncoding.decode(query) ?? [], uniquingKeysWith: { a, _ in a })
                guard params["state"] == state else {
                    ignored += 1
                    reply(client, status: 400, html: "<h1>Not this sign-in</h1><p>This redirect does not belong to the sign-in authdeck started; "
                          + "it was ignored, and authdeck is still waiting for the right one.</p>")
                    continue
                }
                let page = respond(params)
                reply(client, status: page.status, html: page.html)
                return params
            }
            for index in finished.reversed() {
                close(connections[index].fd)
                connections.remove(at: index)
            }
            if fds[0].revents != 0 {
                while true {
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { break }
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                    if connections.count >= Self.maxConnections {
                        close(connections.removeFirst().fd)
                    }
                    connections.append(Connection(fd: client, since: Date()))
                }
            }
        }
    }

    func split(_ target: String) -> (String, String) {
        guard let q = target.firstIndex(of: "?") else { return (target, "") }
        return (String(target[..<q]), String(target[target.index(after: q)...]))
    }

    /// Whether `head` holds a whole request head (up to the empty line).
    static func headEnds(_ head: [UInt8]) -> Bool {
        head.count >= 4 && head.indices.dropFirst(3).contains { head[$0 - 3] == 13 && head[$0 - 2] == 10 && head[$0 - 1] == 13 && head[$0] == 10 }
    }

    /// The request-target of a GET request head; nil for anything else.
    static func requestTarget(_ head: [UInt8]) -> String? {
        let text = String(decoding: head, as: UTF8.self)
        guard let line = text.split(separator: "\r\n").first else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET" else { return nil }
        return String(parts[1])
    }

    func reply(_ client: Int32, status: Int, html: String) {
        let body = Array("<!doctype html><meta charset=utf-8><title>authdeck</title>\(html)".utf8)
        let reason = status == 200 ? "OK" : (status == 404 ? "Not Found" : "Bad Request")
        let head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
