/// Which URLs may carry a secret: https anywhere, plain http only to this machine.
///
/// Why one rule: a password, a token or a redirect sent over plain http to another machine
/// can be read (or changed) by anyone on the way — a café's network, a cloud's metadata
/// address (169.254.169.254), a proxy. On loopback nothing leaves the machine (tests, the
/// emulator, RFC 8252's redirect).
public enum TransportSecurity {
    /// Whether `host` names this machine: `localhost`, 127.0.0.0/8 or `::1`.
    public static func isLoopback(host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h.hasSuffix(".localhost") || h == "::1" || h == "[::1]" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { p in UInt8(p).map { _ in p.count <= 3 } ?? false }
    }

    /// The scheme (lowercased) and host of `url`, or nil when it has no `scheme://host`.
    public static func schemeAndHost(_ url: String) -> (scheme: String, host: String)? {
        guard let sep = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<sep.lowerBound].lowercased()
        var authority = url[sep.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[...close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        guard !scheme.isEmpty, !host.isEmpty else { return nil }
        return (scheme, String(host))
    }

    /// Whether what is sent to `url` stays private: https, or http to a loopback host.
    public static func keepsPrivate(_ url: String) -> Bool {
        guard let (scheme, host) = schemeAndHost(url) else { return false }
        return scheme == "https" || (scheme == "http" && isLoopback(host: host))
    }
}
