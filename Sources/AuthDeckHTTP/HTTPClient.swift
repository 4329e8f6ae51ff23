/// The port through which OAuth flows and adapters reach the network.
///
/// Production uses `CurlHTTPClient`; tests of pure logic can use a fake.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
