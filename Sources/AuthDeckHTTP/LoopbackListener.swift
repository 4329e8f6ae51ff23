import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot HTTP listener on 127.0.0.1 that receives an authorization redirect.
///
/// RFC 8252: listen on the loopback interface only, on an ephemeral port unless a fixed one
/// is configured, and only for the duration of the request. It answers the browser with a
/// small page, ignores stray requests (favicon), and returns the first request whose path
/// matches. Nothing it reads is logged.
public final class LoopbackListener: @unchecked Sendable {
    public let port: UInt16
    public let path: String
    private let fd: Int32

    /// A problem with the loopback listener, worded for a person.
    public struct ListenerError: Error, CustomStringConvertible, Equatable {
        public let description: String
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
        guard bound == 0, listen(sock, 8) == 0 else {
            let why = String(cString: strerror(errno))
            close(sock)
            throw ListenerError(description: "cannot listen on 127.0.0.1:\(port) for the sign-in redirect: \(why)")
        }
        var actual = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(sock, $0, &len) }
        }
        self.fd = sock
        self.port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { close(fd) }

    /// Waits for the redirect and returns its query parameters; `respond` chooses the page
    /// shown in the browser from them. Throws on timeout or task cancellation.
    public func awaitRedirect(timeout: Double, respond: @Sendable ([String: String]) -> (status: Int, html: String)) async throws -> [String: String] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            try Task.checkCancellation()
            if Date() > deadline {
                throw ListenerError(description: "no sign-in redirect arrived within \(Int(timeout)) s")
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 200) > 0 else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            defer { close(client) }
            guard let target = readRequestTarget(client) else { continue }
            let (reqPath, query) = split(target)
            guard reqPath == path else {
                reply(client, status: 404, html: "<p>Not found.</p>")
                continue
            }
            let params = Dictionary(FormEncoding.decode(query) ?? [], uniquingKeysWith: { a, _ in a })
            let page = respond(params)
            reply(client, status: page.status, html: page.html)
            return params
        }
    }

    func split(_ target: String) -> (String, String) {
        guard let q = target.firstIndex(of: "?") else { return (target, "") }
        return (String(target[..<q]), String(target[target.index(after: q)...]))
    }

    /// Reads the request head (at most 16 KiB, 5 s) and returns the request-target of a GET.
    func readRequestTarget(_ client: Int32) -> String? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let start = Date()
        while buffer.count < 16_384, Date().timeIntervalSince(start) < 5 {
            var pfd = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 500) > 0 else { continue }
            let n = read(client, &chunk, chunk.count)
            guard n > 0 else { break }
            buffer += chunk[0..<n]
            if String(decoding: buffer, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let head = String(decoding: buffer, as: UTF8.self)
        guard let line = head.split(separator: "\r\n").first else { return nil }
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
