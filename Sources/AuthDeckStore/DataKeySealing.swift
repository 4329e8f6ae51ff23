import Foundation
import GRDB
import AuthDeckVault
import AuthDeckCore

/// The store's data key as sealed in the meta table: which source wraps it, the wrapped
/// bytes, and what the source needs to unwrap it again (scrypt parameters, store id).
///
/// Rows: `key_source`, `data_key.<source>`, `key_params.<source>`, `store_id`. Exactly one
/// `data_key.*` row exists; switching sources replaces it in one transaction.
struct DataKeySealing: Sendable {
    var kind: KeySourceKind
    var sealed: Data
    var parameters: String?
    var storeID: String?

    /// The associated data the wrapped key is sealed with (the file source's predates the others).
    static func context(_ kind: KeySourceKind) -> String { SealingContext.dataKey(source: kind.rawValue) }

    /// The sealing of an initialised store, nil for a new one.
    static func fetch(_ db: Database) throws -> DataKeySealing? {
        var meta: [String: DatabaseValue] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta WHERE key = 'key_source' OR key = 'store_id' OR key LIKE 'data_key.%' OR key LIKE 'key_params.%'") {
            meta[row[0]] = row[1] as DatabaseValue
        }
        func text(_ key: String) -> String? { meta[key].flatMap { String.fromDatabaseValue($0) } }
        let kind = text(StoreLayout.keySourceKey).flatMap(KeySourceKind.init(rawValue:)) ?? .file
        guard let value = meta[StoreLayout.dataKeyKey(kind.rawValue)], let sealed = Data.fromDatabaseValue(value) else { return nil }
        return DataKeySealing(kind: kind, sealed: sealed, parameters: text("key_params.\(kind.rawValue)"), storeID: text("store_id"))
    }

    /// Replaces whatever sealing the store has with this one.
    func save(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM meta WHERE key LIKE 'data_key.%' OR key LIKE 'key_params.%'")
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [StoreLayout.dataKeyKey(kind.rawValue), sealed])
        if let parameters {
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: ["key_params.\(kind.rawValue)", parameters])
        }
        if let storeID {
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('store_id', ?)", arguments: [storeID])
        }
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [StoreLayout.keySourceKey, kind.rawValue])
    }
}
