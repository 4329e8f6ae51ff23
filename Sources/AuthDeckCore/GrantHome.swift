/// Where a grant came from: the issuer (or authority) that issued it and the origins of the
/// endpoints it was issued at — the only places its refresh token, and the client's secret
/// with it, may be sent.
///
/// Recorded at sign-in and sealed with the refresh token under the data key, so neither a
/// changed config.toml nor a discovery document that names another token endpoint, nor a
/// writer of the store without the key, can move the grant somewhere else: a renewal that
/// would send it elsewhere is refused before anything leaves (`SecretDestination`).
public struct GrantHome: Sendable, Hashable, CustomStringConvertible {
    /// The issuer as the provider named it when the grant was made (an OIDC `issuer`, an
    /// Azure AD authority with its tenant, an OAM server); nil when only origins are known.
    public var issuer: String?
    /// `scheme://host[:port]` of each place the grant may be sent (`origin(of:)`), sorted.
    public var origins: [String]

    public init(issuer: String?, origins: [String]) {
        self.issuer = issuer
        self.origins = Array(Set(origins)).sorted()
    }

    /// The home of a grant issued by `issuer` at the token endpoint `tokenURL`: both origins.
    public static func issued(by issuer: String?, at tokenURL: String) -> GrantHome {
        GrantHome(issuer: issuer, origins: [tokenURL, issuer].compactMap { $0 }.compactMap(origin(of:)))
    }

    /// `scheme://host[:port]` of `url`, lowercased, the default port left out and a trailing
    /// dot of the host dropped — the unit browsers and OAuth trust by; nil for no `scheme://host`.
    public static func origin(of url: String) -> String? {
        guard let sep = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<sep.lowerBound].lowercased()
        var authority = url[sep.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring, port: Substring = ""
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if rest.hasPrefix(":") { port = rest.dropFirst() }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        while host.hasSuffix(".") { host = host.dropLast() }
        guard !scheme.isEmpty, !host.isEmpty, port.allSatisfy(\.isNumber) else { return nil }
        let defaultPort = scheme == "https" ? "443" : scheme == "http" ? "80" : ""
        let shownPort = port.isEmpty || port == defaultPort ? "" : ":\(Int(port) ?? 0)"
        return "\(scheme)://\(host.lowercased())\(shownPort)"
    }

    /// Whether a request to `url`, made by a client that believes it speaks to `issuer`,
    /// stays at this home: the same origin, and (when both are known) the same issuer.
    public func admits(_ url: String, issuer current: String?) -> Bool {
        guard let target = Self.origin(of: url) else { return false }
        if !origins.isEmpty, !origins.contains(target) { return false }
        if let issuer, let current, Self.sameIssuer(issuer, current) == false { return false }
        return true
    }

    /// Issuers compare as the same text with a trailing `/` ignored (OIDC requires the exact
    /// string; a slash is the one difference configs and documents are known to disagree on).
    static func sameIssuer(_ a: String, _ b: String) -> Bool {
        func trimmed(_ s: String) -> Substring { var t = Substring(s); while t.hasSuffix("/") { t = t.dropLast() }; return t }
        return trimmed(a) == trimmed(b)
    }

    public var description: String {
        let at = origins.isEmpty ? "" : " at " + origins.joined(separator: ", ")
        return (issuer.map { "issuer \($0)" } ?? "an unnamed issuer") + at
    }

    /// The home as one line of text (`v1`, the issuer, then origins, tab-separated), for the
    /// store to seal with the refresh token.
    public var encoded: String {
        (["v1", issuer ?? ""] + origins).joined(separator: "\t")
    }

    /// The home `encoded` wrote; nil for anything else.
    public init?(encoded: String) {
        let parts = encoded.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts[0] == "v1" else { return nil }
        self.init(issuer: parts[1].isEmpty ? nil : parts[1], origins: Array(parts.dropFirst(2)))
    }
}
