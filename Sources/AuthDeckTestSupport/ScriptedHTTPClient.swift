import Foundation
import Synchronization
import AuthDeckHTTP

/// A network of a test's own: answers each request by its method and URL from a script,
/// and records every request sent — so use cases run with the real adapters below the binary.
/// A body a request's `BodyStream` accepts is streamed to it, as libcurl would.
public final class ScriptedHTTPClient: HTTPClient, Sendable {
    /// An answer to a request (which it may inspect), or an error as the transport would throw.
    public typealias Answer = @Sendable (HTTPRequest) throws -> HTTPResponse

    private let routes = Mutex<[String: [Answer]]>([:])
    private let sent = Mutex<[HTTPRequest]>([])

    public init() {}

    /// Answers the next request to `method url` (in the order added; the last one repeats).
    public func on(_ method: String, _ url: String, _ answer: @escaping Answer) {
        routes.withLock { $0["\(method) \(url)", default: []].append(answer) }
    }

    /// A JSON answer.
    public static func json(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body.utf8))
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] { sent.withLock { $0 } }

    /// The form fields of a request's body.
    public static func form(_ request: HTTPRequest) -> [String: String] {
        let body = String(decoding: request.body ?? [], as: UTF8.self)
        return Dictionary(FormEncoding.decode(body) ?? [], uniquingKeysWith: { a, _ in a })
    }

    public func transmit(_ request: HTTPRequest) async throws -> HTTPResponse {
        sent.withLock { $0.append(request) }
        let key = "\(request.method) \(request.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.url)"
        let answer: Answer? = routes.withLock { routes in
            guard var list = routes[key], let first = list.first else { return nil }
            if list.count > 1 { list.removeFirst(); routes[key] = list }
            return first
        }
        guard let answer else {
            throw HTTPError.transport(code: 7, message: "nothing scripted for \(key)", host: "scripted")
        }
        var response = try answer(request)
        // A streamed download goes through the request's stream, as libcurl delivers it.
        switch request.bodyStream?.take(response.body, status: response.status, headers: response.headers) {
        case nil: break
        case true?: response.body = []
        case false?: throw HTTPError.transport(code: 23, message: "the output refused the body", host: "scripted")
        }
        return response
    }
}
