/// One HTTP cookie held for an account (SharePoint FedAuth, rtFa, SPOIDCRL…).
public struct Cookie: Equatable, Hashable, Sendable {
    public var id: String
    public var name: String
    public var value: Secret
    /// Domain as in a cookie jar; a leading dot means subdomains match too.
    public var domain: String
    public var path: String
    /// nil for a session cookie (no Expires): valid until the server says otherwise.
    public var expiresAt: Instant?
    public var secure: Bool
    public var httpOnly: Bool

    public init(id: String, name: String, value: Secret, domain: String, path: String = "/",
                expiresAt: Instant? = nil, secure: Bool = true, httpOnly: Bool = true) {
        self.id = id
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.expiresAt = expiresAt
        self.secure = secure
        self.httpOnly = httpOnly
    }

    public func isValid(at now: Instant, skew: TimeSpan) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt - skew > now
    }
}
