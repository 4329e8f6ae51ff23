extension HTTPError {
    /// Whether libcurl's TLS error message is OpenSSL's reading of a plain-http
    /// answer as a TLS record. Why by message: libcurl gives the same code
    /// (CURLE_SSL_CONNECT_ERROR) for every failed handshake, and only the TLS library's text
    /// tells "the server spoke http" from "the server wants a client certificate".
    static func isPlainHTTPAnswer(_ message: String) -> Bool {
        let m = message.lowercased()
        return ["wrong version number", "packet length too long", "record layer failure"].contains { m.contains($0) }
    }
}
