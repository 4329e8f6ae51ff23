import AuthDeckCore

/// A failure below HTTP: no response was received, or it could not be accepted.
public enum HTTPError: Error, Equatable, CustomStringConvertible {
    /// libcurl could not be loaded.
    case unavailable(String)
    /// Connecting, resolving, or the transfer failed (curl code and message).
    case transport(code: Int, message: String, host: String)
    /// The server's certificate did not verify; verification cannot be turned off.
    case tlsVerification(message: String, host: String)
    /// The TLS handshake failed for another reason: most often the server wants a client
    /// certificate that was not presented, or refused the one that was.
    case tlsRefused(message: String, host: String, presentedCertificate: Bool)
    /// An https URL reached a server that answered in plain http: the handshake failed on
    /// the first bytes, and asking about client certificates would send the reader astray.
    case plainHTTPAnswer(host: String)
    /// The client certificate was not sent: libcurl could not load it (the cause, when
    /// the identity's own check names one, else libcurl's message).
    case clientCertificate(cause: String, host: String)
    case timedOut(host: String, seconds: Double)
    case responseTooLarge(host: String, limit: Int)
    case invalidURL(String)
    /// Not sent: a secret it carries may not go there (`SecretDestination`).
    case refused(SecretRefusal)

    public var description: String {
        switch self {
        case .unavailable(let m): return m
        case .transport(_, let m, let host): return "\(host): \(m)"
        case .tlsVerification(let m, let host): return "\(host): TLS certificate not trusted (\(m))"
        case .tlsRefused(let m, let host, let presented):
            if presented { return "\(host): the TLS handshake failed (\(m)); does the server trust the client certificate presented?" }
            if Self.isClosedHandshake(m) {
                return "\(host): the server closed the connection during the TLS handshake (\(m)); does it speak plain http "
                    + "(an http:// URL is allowed only for this machine's loopback), or require a client certificate?"
            }
            return "\(host): the TLS handshake failed (\(m)); does the server require a client certificate?"
        case .plainHTTPAnswer(let host):
            return "the server at \(host) answered in plain http, not TLS: use an http:// URL only for this machine's loopback, or the server's https port"
        case .clientCertificate(let cause, let host):
            return "\(host): the client certificate could not be used, so none was sent: \(cause); import a working one with `authdeck import cert`"
        case .timedOut(let host, let s): return "\(host): no complete answer within \(Int(s)) s"
        case .responseTooLarge(let host, let limit): return "\(host): the response is larger than \(limit / 1024) KiB; refused"
        case .invalidURL(let u): return "not a valid http(s) URL: \(u)"
        case .refused(let refusal): return refusal.description
        }
    }

    /// TLS failures are not "try again later": they need a person to look.
    public var isTransient: Bool {
        switch self {
        case .transport, .timedOut: return true
        case .unavailable, .tlsVerification, .tlsRefused, .plainHTTPAnswer, .clientCertificate, .responseTooLarge, .invalidURL, .refused: return false
        }
    }
}
