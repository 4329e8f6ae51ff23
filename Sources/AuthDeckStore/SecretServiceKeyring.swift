import Foundation
import CSecret

/// The Secret Service (GNOME Keyring, KWallet's bridge, KeePassXC) as a key source: one item
/// per store, found by the store's id, holding the key that wraps the store's data key.
///
/// Why an id and not the path: a store that is moved or reached through another path must
/// still find its item. libsecret is loaded only when a store uses this source.
public struct SecretServiceKeyring: Sendable {
    public init() {}

    /// Stores (or replaces) the store's item.
    public func store(storeID: String, label: String, secret: String) throws {
        var err = [CChar](repeating: 0, count: 512)
        guard ad_secret_store(storeID, label, secret, &err, err.count) == 0 else { throw failure(err) }
    }

    /// The store's item, or nil when the Secret Service has none.
    public func lookup(storeID: String) throws -> String? {
        var err = [CChar](repeating: 0, count: 512)
        var out: UnsafeMutablePointer<CChar>?
        switch ad_secret_lookup(storeID, &out, &err, err.count) {
        case 1:
            defer { ad_secret_free(out) }
            return out.map { String(cString: $0) }
        case 0: return nil
        default: throw failure(err)
        }
    }

    /// A Chromium-family browser's "Safe Storage" password (the item it keeps with
    /// `application = <application>`), or nil when the Secret Service has none.
    public func browserPassword(application: String) throws -> String? {
        var err = [CChar](repeating: 0, count: 512)
        var out: UnsafeMutablePointer<CChar>?
        switch ad_secret_lookup_application(application, &out, &err, err.count) {
        case 1:
            defer { ad_secret_free(out) }
            return out.map { String(cString: $0) }
        case 0: return nil
        default: throw failure(err)
        }
    }

    /// Removes the store's item; whether there was one.
    @discardableResult
    public func clear(storeID: String) throws -> Bool {
        var err = [CChar](repeating: 0, count: 512)
        let result = ad_secret_clear(storeID, &err, err.count)
        guard result >= 0 else { throw failure(err) }
        return result == 1
    }

    private func failure(_ err: [CChar]) -> StoreError {
        let text = String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .keySource(source: "Secret Service", detail: text.isEmpty ? "unknown error" : text)
    }
}
