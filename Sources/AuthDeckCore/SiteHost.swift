/// A SharePoint site as one value: its host, normalised once from `options.site`.
///
/// People copy the address bar (`https://contoso.sharepoint.com/`) as often as they write the
/// host; when each place compared the raw text its own way, a URL matched `.sharepoint.com`
/// (rtFa) but not `contoso.sharepoint.com` (FedAuth). Config turns either spelling into this
/// value when it loads, and every cookie-domain and origin check goes through it.
public struct SiteHost: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Lower-case ASCII host without a trailing dot (`contoso.sharepoint.com`).
    public let host: String

    /// Why a text is not a site, worded to follow "options.site must …" style messages.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Parses a host (`contoso.sharepoint.com`) or an https URL of the site's root
    /// (`https://contoso.sharepoint.com` or `…/`). Refuses http, a port, a path, a query,
    /// user info and anything that is not a DNS name, naming what was found.
    public init(parsing text: String) throws(Problem) {
        var rest = Substring(text.trimmingWhitespace().lowercased())
        guard !rest.isEmpty else { throw Problem(description: "is empty; name the SharePoint host (e.g. contoso.sharepoint.com)") }
        if let scheme = rest.firstRange(of: "://") {
            let name = rest[..<scheme.lowerBound]
            guard name == "https" else {
                throw Problem(description: "must be the site's https address or its host (found a \(name) URL: \"\(text)\"); SharePoint Online is https only")
            }
            rest = rest[scheme.upperBound...]
        }
        var authority = rest, tail = Substring("")
        if let cut = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            authority = rest[..<cut]
            tail = rest[cut...]
        }
        guard tail.isEmpty || tail == "/" else {
            throw Problem(description: "names the site's host, not a page or sub-site (found \"\(tail)\" after the host in \"\(text)\"); write just https://\(authority) — cookies are the host's, whatever the path")
        }
        guard !authority.contains("@") else { throw Problem(description: "must not carry a user name (found \"\(text)\"); write the host alone") }
        guard !authority.contains(":") else {
            throw Problem(description: "must not name a port (found \"\(text)\"); SharePoint Online is served on 443 — for a test server set options.site_url")
        }
        if authority.hasSuffix(".") { authority = authority.dropLast() }
        let labels = authority.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }) else {
            throw Problem(description: "must name the SharePoint host (e.g. contoso.sharepoint.com; found \"\(text)\")")
        }
        host = String(authority)
    }

    public var description: String { host }

    /// `https://<host>`: the origin requests to the site and its redirects are held to.
    public var origin: String { "https://\(host)" }

    /// Whether a cookie stored for `domain` is sent to this site (RFC 6265 §5.1.3): the host
    /// itself (host-only, as FedAuth), or a parent domain with its leading dot (a domain
    /// cookie, as rtFa on `.sharepoint.com`). A trailing dot on either side is the same name.
    public func sends(cookieDomain domain: String) -> Bool {
        var d = Substring(domain.lowercased())
        if d.hasSuffix(".") { d = d.dropLast() }
        if d == host { return true }
        return d.hasPrefix(".") && d.count > 1 && (d.dropFirst() == host || host.hasSuffix(String(d)))
    }

    /// Every cookie domain `sends(cookieDomain:)` accepts, for asking a browser's database
    /// for the site's rows alone: the host, then each parent with its leading dot.
    public var cookieDomains: [String] {
        let labels = host.split(separator: ".")
        return [host] + (0..<labels.count).map { "." + labels[$0...].joined(separator: ".") }
    }
}
