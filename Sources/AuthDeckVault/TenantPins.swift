import AuthDeckCore

/// The tenants the config's providers pin (`ProviderProfile.expectedRealm`), as `authdeck-full`
/// last read the config file, for the front: it serves no cached token of an account signed in
/// to another tenant than its provider pins (`TenantPin`), which authdeck-full refuses.
///
/// Why a record: the front does not read config.toml, and without the pins it would answer
/// `authdeck token prod` with the cached token of the dev tenant's account. Sealed like the
/// other fast-path records (`SealingContext.tenantPins`): a writer without the key could
/// otherwise drop a pin. The front believes it only for the config file it names, and hands
/// over when it is missing.
public struct TenantPins: Equatable, Sendable {
    /// The meta-table key of the record; a new format takes a new key.
    public static let metaKey = "tenant_pins.v1"
    /// The meta-table key of the record's seal.
    public static let sealKey = "tenant_pins.v1.seal"

    public var configIdentity: String
    /// Provider id → the tenant it pins, for the providers that pin one.
    public var pins: [String: String]

    public init(configIdentity: String, pins: [String: String]) {
        self.configIdentity = configIdentity
        self.pins = pins
    }

    /// The pins of `providers`.
    public init(configIdentity: String, providers: [ProviderProfile]) {
        var pins: [String: String] = [:]
        for p in providers { if let realm = p.expectedRealm { pins[p.id] = realm } }
        self.init(configIdentity: configIdentity, pins: pins)
    }

    /// The stored form: length-prefixed fields, providers in sorted order.
    public var encoded: String {
        var out = HelperFastPath.field(configIdentity) + HelperFastPath.field(String(pins.count))
        for (provider, realm) in pins.sorted(by: { $0.key < $1.key }) {
            out += HelperFastPath.field(provider) + HelperFastPath.field(realm)
        }
        return out
    }

    /// The record of `encoded`, nil for anything that is not exactly one (canonical form only).
    public init?(encoded: String) {
        var reader = HelperFastPath.FieldReader(bytes: Array(encoded.utf8))
        guard let identity = reader.field(), let count = reader.number(), count <= 10_000 else { return nil }
        var pins: [String: String] = [:]
        for _ in 0..<count {
            guard let provider = reader.field(), let realm = reader.field() else { return nil }
            pins[provider] = realm
        }
        guard reader.atEnd else { return nil }
        self.init(configIdentity: identity, pins: pins)
        guard self.encoded == encoded else { return nil }
    }
}
