extension Cookie {
    /// Whether a browser would send this cookie to `url` (RFC 6265 §5.4): the host domain-
    /// matches (a leading dot: the domain and its subdomains; none: that host alone), the path
    /// path-matches, and a `secure` cookie goes only where `TransportSecurity` keeps it private.
    ///
    /// Why the agent needs it: a host asking for "the cookies for this URL" must get those and
    /// no others (rtFa for `.sharepoint.com` and the site's FedAuth, not another site's).
    public func goes(to url: String) -> Bool {
        guard let (scheme, rawHost) = TransportSecurity.schemeAndHost(url), scheme == "https" || scheme == "http" else { return false }
        let host = rawHost.lowercased()
        let domain = self.domain.lowercased()
        let hostMatches = domain.hasPrefix(".")
            ? host == domain.dropFirst() || host.hasSuffix(domain)
            : host == domain
        guard hostMatches else { return false }
        if secure, !TransportSecurity.keepsPrivate(url) { return false }
        return Self.pathMatches(cookiePath: path.isEmpty ? "/" : path, requestPath: Self.path(of: url))
    }

    /// The path of `url` (`/` when it has none), without query or fragment.
    static func path(of url: String) -> String {
        guard let sep = url.firstRange(of: "://") else { return "/" }
        let rest = url[sep.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...].prefix { $0 != "?" && $0 != "#" })
    }

    /// RFC 6265 §5.1.4: equal, or a prefix ending at `/` or followed by `/`.
    static func pathMatches(cookiePath: String, requestPath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath == cookiePath || cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }
}
