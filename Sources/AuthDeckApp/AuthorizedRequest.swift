import AuthDeckCore
import AuthDeckConfig
import AuthDeckHTTP
import AuthDeckProviders

/// One HTTP request sent with an account's credential (`authdeck request`): renewed first when
/// due, renewed and sent again once when the server asks for a new one, and never sent past a
/// redirect that leaves the origin (`ResourceRequester`).
public struct AuthorizedRequest: Sendable {
    /// What came back.
    public struct Answer: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        /// Whether the server asked for new credentials and the request was sent again.
        public var renewed: Bool
        /// The URLs requested, in order, for the last attempt.
        public var hops: [String]
        /// Whether a redirect left the origin, so later hops went without the credential.
        public var leftOrigin: Bool
    }

    /// The exchange failed before an answer (connection, TLS, timeout); `transient` when
    /// trying again later may work.
    public struct NetworkFailure: ReportedError, CustomStringConvertible {
        public let description: String
        public let transient: Bool
        public var sentence: String { description }
        public var exitStatus: Int32 { transient ? ExitStatus.transient : ExitStatus.failure }
    }

    let requester: ResourceRequester

    /// The request path of `stored`'s provider (its adapter and TLS settings); throws the
    /// provider's `AuthFailure` for settings that cannot be used.
    public init(for stored: StoredAccount, wiring: ProviderWiring, config: DeckConfig, scopes: [String]) throws {
        try TokenAccess.refuseOtherTenant(stored, config: config)
        let adapter = try wiring.adapter(forProvider: stored.account.providerId, config: config)
        requester = try wiring.requester(with: adapter, config: config, scopes: scopes)
    }

    /// Sends the request for `accountId`, the answer's body (at most 1 MiB) going to `output`.
    public func send(method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]?, timeout: Double,
                     accountId: String, output: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) async throws -> Answer {
        var request = HTTPRequest(method: method, url: url, headers: headers.map { HTTPHeader($0.name, $0.value) }, body: body,
                                  timeout: timeout)
        request.maxResponseBytes = 1 << 20
        let outcome: ResourceRequester.Outcome
        do {
            outcome = try await requester.send(request, accountId: accountId, output: output)
        } catch let error as HTTPError {
            throw NetworkFailure(description: error.description, transient: error.isTransient)
        }
        return Answer(status: outcome.response.status, headers: outcome.response.headers.map { ($0.name, $0.value) },
                      renewed: outcome.renewed, hops: outcome.hops, leftOrigin: outcome.leftOrigin)
    }
}
