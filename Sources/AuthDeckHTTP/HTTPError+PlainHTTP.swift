extension HTTPError {
    /// Whether libcurl's TLS error message is OpenSSL's reading of a plain-http
    /// answer as a TLS record. Why by message: libcurl gives the same code
    /// (CURLE_SSL_CONNECT_ERROR) for every failed handshake, and only the TLS library's text
    /// tells "the server spoke http" from "the server wants a client certificate".
    static func isPlainHTTPAnswer(_ message: String) -> Bool {
        let m = message.lowercased()
        return ["wrong version number", "packet length too long", "record layer failure"].contains { m.contains($0) }
    }

    /// Whether the handshake ended with the connection closed, no alert sent: what a plain-http
    /// server that drops a ClientHello without answering looks like, as much as one that wants
    /// a client certificate — so the message names both.
    static func isClosedHandshake(_ message: String) -> Bool {
        let m = message.lowercased()
        return m.contains("ssl_error_syscall") || m.contains("unexpected eof") || m.contains("connection reset")
    }
}
