/// An `HTTPClient` that adds a provider's TLS settings (private CA, client certificate) to
/// every request it sends, so adapters need not know about them.
public struct TLSHTTPClient: HTTPClient {
    public let base: any HTTPClient
    public let tls: TLSOptions

    public init(base: any HTTPClient, tls: TLSOptions) {
        self.base = base
        self.tls = tls
    }

    public func transmit(_ request: HTTPRequest) async throws -> HTTPResponse {
        var r = request
        r.tls.caFile = r.tls.caFile ?? tls.caFile
        r.tls.clientCertificateFile = r.tls.clientCertificateFile ?? tls.clientCertificateFile
        r.tls.clientKeyFile = r.tls.clientKeyFile ?? tls.clientKeyFile
        r.tls.clientIdentity = r.tls.clientIdentity ?? tls.clientIdentity
        return try await base.transmit(r)
    }
}
