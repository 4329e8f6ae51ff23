import Foundation
import GRDB
import AuthDeckCore

/// Discovery documents and key sets cached in the store: public documents, but they decide
/// where secrets are sent (`token_endpoint`), so each is kept with its seal.
extension DeckStore: DocumentCache {
    /// The cached body, or nil when there is none or it does not match its seal (edited
    /// without the key): such a row is discarded, so the caller fetches the document again.
    public func cachedDocument(url: String) throws -> (body: [UInt8], fetchedAt: Instant)? {
        let found = try read { db -> (body: [UInt8], fetchedAt: Instant, trusted: Bool)? in
            guard let row = try Row.fetchOne(db, sql: "SELECT document, fetched_at, seal FROM discovery_cache WHERE url = ?",
                                             arguments: [url]) else { return nil }
            let text: String = row["document"]
            let fetchedAt: Int64 = row["fetched_at"]
            let seal: Data? = row["seal"]
            let body = Array(text.utf8)
            let opened = seal.flatMap { try? box.open(Array($0), context: SealingContext.document(url: url, fetchedAt: fetchedAt)) }
            return (body, Instant(secondsSinceEpoch: fetchedAt), opened == body)
        }
        guard let found else { return nil }
        guard found.trusted else {
            if !readOnly {
                try write { db in
                    try db.execute(sql: "DELETE FROM discovery_cache WHERE url = ?", arguments: [url])
                    try Self.insertEvent(DeckEvent(at: clock.now(), kind: .tampered,
                                                   detail: "cached document for \(url) did not match its seal; discarded, fetched again"), db)
                }
            }
            return nil
        }
        return (found.body, found.fetchedAt)
    }

    public func cacheDocument(url: String, body: [UInt8], at: Instant) throws {
        // Stored as the text it is read back as, and sealed as those bytes.
        let text = String(decoding: body, as: UTF8.self)
        let seal = try box.seal(Array(text.utf8), context: SealingContext.document(url: url, fetchedAt: at.secondsSinceEpoch))
        try write { db in
            try db.execute(sql: "REPLACE INTO discovery_cache (url, document, fetched_at, seal) VALUES (?, ?, ?, ?)",
                           arguments: [url, text, at.secondsSinceEpoch, Data(seal)])
        }
    }
}
