import Foundation
import AuthDeckHTTP

/// An `HTTPClient` that answers from a script and records what was sent.
final class FakeHTTPClient: HTTPClient, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [(HTTPRequest) throws -> HTTPResponse]
    private(set) var requests: [HTTPRequest] = []

    init(_ answers: [(HTTPRequest) throws -> HTTPResponse]) { self.answers = answers }

    convenience init(json: [(Int, String)]) {
        self.init(json.map { status, body in { _ in FakeHTTPClient.response(status, body) } })
    }

    static func response(_ status: Int, _ body: String, contentType: String = "application/json", headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", contentType)] + headers, body: Array(body.utf8))
    }

    func transmit(_ request: HTTPRequest) async throws -> HTTPResponse {
        let answer: (HTTPRequest) throws -> HTTPResponse = try lock.withLock {
            requests.append(request)
            guard !answers.isEmpty else { throw HTTPError.transport(code: 7, message: "no scripted answer", host: "fake") }
            return answers.removeFirst()
        }
        return try answer(request)
    }

    func form(_ index: Int) -> [String: String] {
        let body = String(decoding: requests[index].body ?? [], as: UTF8.self)
        return Dictionary(FormEncoding.decode(body) ?? [], uniquingKeysWith: { a, _ in a })
    }
}

/// Records sleeps instead of sleeping.
final class RecordingSleeper: Sleeper, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var slept: [Double] = []
    func sleep(seconds: Double) async throws { lock.withLock { slept.append(seconds) } }
}

import AuthDeckOAuth
