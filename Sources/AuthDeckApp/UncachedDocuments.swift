import AuthDeckCore

/// A document cache that keeps nothing: for checking providers before any store exists
/// (`authdeck providers` on a fresh machine), where creating a store just to cache a
/// discovery document would break the rule that reading commands never create one.
struct UncachedDocuments: DocumentCache {
    func cachedDocument(url: String) throws -> (body: [UInt8], fetchedAt: Instant)? { nil }
    func cacheDocument(url: String, body: [UInt8], at: Instant) throws {}
}
