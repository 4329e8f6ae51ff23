import Foundation
import GRDB
import AuthDeckCore

/// Provider-level sealed secrets (client certificates and keys for mutual TLS).
extension DeckStore: ProviderSecretStore {
    static func providerContext(_ provider: String, _ name: String) -> String { "authdeck/v1/provider_secrets/\(provider)/\(name)" }

    public func providerSecret(_ name: String, provider: String) throws -> Secret? {
        try read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT sealed_value FROM provider_secrets WHERE provider_id = ? AND name = ?",
                                               arguments: [provider, name]) else { return nil }
            return try box.openString(data, context: Self.providerContext(provider, name))
        }
    }

    public func setProviderSecret(_ value: Secret?, name: String, provider: String) throws {
        try write { db in
            if let value {
                try db.execute(sql: "REPLACE INTO provider_secrets (provider_id, name, sealed_value) VALUES (?, ?, ?)",
                               arguments: [provider, name, try box.sealString(value, context: Self.providerContext(provider, name))])
            } else {
                try db.execute(sql: "DELETE FROM provider_secrets WHERE provider_id = ? AND name = ?", arguments: [provider, name])
            }
        }
    }
}
