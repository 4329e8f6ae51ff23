import AuthDeckCore

/// The port through which OAuth flows and adapters reach the network.
///
/// Production uses `CurlHTTPClient`; tests of pure logic can use a fake. Implementations
/// provide `transmit`; everyone calls `send`, the one gate every outgoing secret passes:
/// it asks `SecretDestination` about the request's passage (declared, or inferred from the
/// credentials it carries) and refuses before any byte leaves. A fake behind `send` is held
/// to the same rule as libcurl, so tests of the senders test the gate too.
public protocol HTTPClient: Sendable {
    /// Sends without asking: only `send` and wrapping clients call it.
    func transmit(_ request: HTTPRequest) async throws -> HTTPResponse
}

extension HTTPClient {
    /// Sends `request` if every secret it carries may go to its URL; else throws
    /// `HTTPError.refused` and sends nothing.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let passage = request.effectivePassage, let refusal = SecretDestination.refusal(passage, to: request.url) {
            throw HTTPError.refused(refusal)
        }
        return try await transmit(request)
    }
}
