import Foundation
import GRDB
import AuthDeckCore

/// Provider-level sealed secrets (client certificates and keys for mutual TLS).
extension DeckStore: ProviderSecretStore {
    static func providerContext(_ provider: String, _ name: String) -> String { SealingContext.providerSecret(provider, name) }

    public func providerSecret(_ name: String, provider: String) throws -> Secret? {
        try read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT sealed_value FROM provider_secrets WHERE provider_id = ? AND name = ?",
                                               arguments: [provider, name]) else { return nil }
            return try box.openString(Array(data), context: Self.providerContext(provider, name))
        }
    }

    /// Replaces every secret of `provider` named `prefix…` with `values`, in one transaction:
    /// an import leaves nothing of the previous identity behind (a PKCS#12 password beside a
    /// PEM key) and never half of the new one.
    public func replaceProviderSecrets(prefix: String, with values: [String: Secret], provider: String) throws {
        precondition(values.keys.allSatisfy { $0.hasPrefix(prefix) }, "every replacement is named \(prefix)…")
        try write { db in
            try db.execute(sql: "DELETE FROM provider_secrets WHERE provider_id = ? AND substr(name, 1, ?) = ?",
                           arguments: [provider, prefix.utf8.count, prefix])
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT INTO provider_secrets (provider_id, name, sealed_value) VALUES (?, ?, ?)",
                               arguments: [provider, name, try box.sealString(value, context: Self.providerContext(provider, name))])
            }
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
