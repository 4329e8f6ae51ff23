import Foundation
import Crypto
import GRDB
import AuthDeckCore

/// What `migrateKey` did, worded for the person who asked.
public struct KeyMigration: Sendable, Equatable {
    public var from: KeySourceKind
    public var to: KeySourceKind
    /// The new source as `status` shows it.
    public var source: String
    /// What was left behind and why (the old key file stays: other stores may use it).
    public var notes: [String]
}

extension DeckStore {
    /// Re-wraps the data key with another key source, in one transaction.
    ///
    /// Nothing is re-encrypted: every sealed value stays as it is, only the one wrapped copy
    /// of the data key in the meta table changes. The new source is set up first (key file
    /// created, passphrase asked, Secret Service item stored), so a failure there changes
    /// nothing; a Secret Service item made for a transaction that then fails is removed again.
    /// `--to passphrase` on a passphrase store changes the passphrase.
    public func migrateKey(to kind: KeySourceKind, keys: KeySources) throws -> KeyMigration {
        let path = location.databasePath
        let current = try read { db in try DataKeySealing.fetch(db) }
        guard let current else { throw StoreError.unreadable(path: path, detail: "the store has no data key") }
        if current.kind == kind, kind != .passphrase {
            return KeyMigration(from: kind, to: kind, source: keys.describe(current), notes: ["already sealed with \(kind.rawValue); nothing changed"])
        }
        let storeID = current.storeID ?? UUID().uuidString.lowercased()
        let (wrappingKey, parameters) = try keys.newKey(kind, storeID: storeID, storePath: path)
        let raw = box.key.withUnsafeBytes { Array($0) }
        let next = DataKeySealing(kind: kind, sealed: Data(try AESSecretBox(key: wrappingKey).seal(raw, context: DataKeySealing.context(kind))),
                                  parameters: parameters, storeID: storeID)
        let now = clock.now()
        do {
            try write { db in
                guard let latest = try DataKeySealing.fetch(db), latest.sealed == current.sealed else {
                    throw StoreError.keySource(source: kind.rawValue, detail: "another process changed the key source of \(path) meanwhile; nothing changed, run the command again")
                }
                try next.save(db)
                try DeckStore.insertEvent(DeckEvent(at: now, kind: .keyMigrated,
                    detail: "data key re-wrapped: \(current.kind.rawValue) → \(kind.rawValue)"), db)
            }
        } catch {
            if kind == .keyring, current.kind != .keyring { _ = try? keys.keyring.clear(storeID: storeID) }
            throw error
        }
        var notes: [String] = []
        switch current.kind {
        case .file where kind != .file:
            notes.append("the key file \(keys.keyFile.path) no longer unlocks this store; it is left in place because other stores may use it")
        case .keyring where kind != .keyring:
            if (try? keys.keyring.clear(storeID: storeID)) == nil {
                notes.append("the old Secret Service item (store=\(storeID)) could not be removed; it no longer unlocks anything")
            }
        default: break
        }
        return KeyMigration(from: current.kind, to: kind, source: keys.describe(next), notes: notes)
    }
}
