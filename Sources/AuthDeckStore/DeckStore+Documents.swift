import Foundation
import GRDB
import AuthDeckCore

/// Discovery documents and key sets cached in the store (not secret: public documents).
extension DeckStore: DocumentCache {
    public func cachedDocument(url: String) throws -> (body: [UInt8], fetchedAt: Instant)? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT document, fetched_at FROM discovery_cache WHERE url = ?",
                                             arguments: [url]) else { return nil }
            let text: String = row["document"]
            return (Array(text.utf8), Instant(secondsSinceEpoch: row["fetched_at"]))
        }
    }

    public func cacheDocument(url: String, body: [UInt8], at: Instant) throws {
        try write { db in
            try db.execute(sql: "REPLACE INTO discovery_cache (url, document, fetched_at) VALUES (?, ?, ?)",
                           arguments: [url, String(decoding: body, as: UTF8.self), at.secondsSinceEpoch])
        }
    }
}
