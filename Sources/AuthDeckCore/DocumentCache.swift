/// The port for caching fetched documents (OIDC discovery, JWKS) between runs, so
/// `authdeck token` does not fetch them every time.
public protocol DocumentCache: Sendable {
    func cachedDocument(url: String) throws -> (body: [UInt8], fetchedAt: Instant)?
    func cacheDocument(url: String, body: [UInt8], at: Instant) throws
}
