/// A `[[credential]]` entry: which account answers git, kubectl or docker for a URL.
///
/// Why in Core: matching a URL to its entry (the longest prefix wins, on whole path segments)
/// is policy that the CLI's helpers and their tests share.
public struct CredentialRoute: Equatable, Sendable {
    /// `scheme://host[:port][/path]`, lowercased scheme and host, no trailing slash.
    public var url: String
    /// ACCOUNT as everywhere (a provider id means its default account).
    public var account: String
    /// The audience the tool needs (the account's configured scopes when empty).
    public var scopes: [String]
    /// What git is told as the username (the account's username when nil).
    public var username: String?
    /// `"acr"`: an Azure Container Registry, whose docker credential is a registry refresh
    /// token exchanged for the account's token (the default for `*.azurecr.io`); `"docker"`:
    /// another registry, given the token itself. Either makes the entry docker's (`isDockers`).
    public var registry: String?
    /// A CA file for the registry's TLS (a private registry), never a way to skip verification.
    public var caFile: String?

    public init(url: String, account: String, scopes: [String] = [], username: String? = nil, registry: String? = nil, caFile: String? = nil) {
        self.url = Self.normalized(url)
        self.account = account
        self.scopes = scopes
        self.username = username
        self.registry = registry
        self.caFile = caFile
    }

    /// `host[:port]` of the URL, as docker names a registry.
    public var hostAndPort: String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        return String(rest.prefix { $0 != "/" })
    }

    /// Whether the entry is docker's rather than git's: a `registry` is named or the host is an
    /// Azure Container Registry. Each helper serves only its own entries, so `setup-git` never
    /// points git at a registry and `docker-credential list` never names a repository host.
    public var isDockers: Bool { registry != nil || hostAndPort.hasSuffix(".azurecr.io") }

    /// Whether docker's credential for it is an ACR refresh token.
    public var isACR: Bool { registry == "acr" || (registry == nil && hostAndPort.hasSuffix(".azurecr.io")) }

    /// `url` with scheme and host lowercased and no trailing slash.
    public static func normalized(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let rest = url[schemeEnd.upperBound...]
        let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var path = String(rest[hostEnd...])
        while path.hasSuffix("/") { path.removeLast() }
        return scheme + "://" + rest[..<hostEnd].lowercased() + path
    }

    /// Whether this entry covers `url`: the same scheme and host, and a path that is this
    /// entry's path or below it (on a `/` boundary: `/contoso` does not cover `/contosox`).
    /// A path with a dot segment is covered by none (`climbs`).
    public func covers(_ url: String) -> Bool {
        guard !Self.climbs(url) else { return false }
        let target = Self.normalized(url)
        return target == self.url || target.hasPrefix(self.url + "/")
    }

    /// Whether the path of `url` holds a dot segment — `.` or `..` — written plainly or
    /// percent-encoded at any depth (`%2e%2E`, `%252e%252e`), between `/`, `\`, `?`, `#` or `;`.
    ///
    /// Why refused rather than resolved (RFC 3986 remove_dot_segments): where such a request
    /// lands depends on who resolves what — curl removes plain dot segments, some servers
    /// decode `%2e` or `%5c` once more, some split at `\` or `;` — so
    /// `https://dev.azure.com/contoso/%2e%2e/evil` may reach `/evil` while it reads as under
    /// `/contoso`. Only answering nothing is right under every reading, and no real
    /// repository or registry URL holds a dot segment.
    public static func climbs(_ url: String) -> Bool {
        guard let schemeEnd = url.firstRange(of: "://") else { return false }
        let rest = url[schemeEnd.upperBound...]
        guard let pathStart = rest.firstIndex(where: { "/?#\\".contains($0) }) else { return false }
        var path = String(rest[pathStart...])
        for _ in 0..<8 {
            let segments = path.unicodeScalars.split(omittingEmptySubsequences: false) { "/\\?#;".unicodeScalars.contains($0) }
            if segments.contains(where: { $0.elementsEqual(".".unicodeScalars) || $0.elementsEqual("..".unicodeScalars) }) { return true }
            let decoded = PercentEncoding.decoded(path)
            if decoded == path { return false }
            path = decoded
        }
        return true  // still escaped after eight decodings: no one means that
    }

    /// The entry for `url` among `routes`: the longest that covers it.
    public static func route(for url: String, in routes: [CredentialRoute]) -> CredentialRoute? {
        routes.filter { $0.covers(url) }.max { $0.url.count < $1.url.count }
    }
}
