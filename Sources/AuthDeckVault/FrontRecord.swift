import AuthDeckCore

/// Everything of the config that decides which cached token the `authdeck` front serves, as
/// `authdeck-full` last read the config file: the clock-skew margin, the `[[credential]]`
/// routes git's and kubectl's helpers follow, and the tenant each provider pins
/// (`ProviderProfile.expectedRealm`) — with that file's identity (`ConfigFileIdentity`) taken
/// just before it was read.
///
/// Why one record: the front does not read config.toml (parsing TOML costs more than the whole
/// cached answer), so whatever of the config changes which token is served must reach it
/// through the store. One record, written in one place (the use case `TokenAccess`) and read
/// by the front as a whole, means a new such setting is a field here, not a new record with
/// its own writers and reader. Stored in the meta table with a seal (`SealingContext.frontRecord`,
/// an empty value under the data key with the whole record as associated data): a margin, a
/// route or a missing pin decides whose token is given until when, so a record written
/// without the key is never believed, and the front serves only while the config file still
/// has the recorded identity.
public struct FrontRecord: Equatable, Sendable {
    /// The meta-table key of the record; a new format takes a new key.
    public static let metaKey = "fast_front.v1"
    /// The meta-table key of the record's seal.
    public static let sealKey = "fast_front.v1.seal"
    /// The keys of the records this one replaced, deleted when it is written.
    public static let retiredMetaKeys = ["fast_token.v1", "fast_token.v1.seal", "fast_helpers.v1", "fast_helpers.v1.seal",
                                            "tenant_pins.v1", "tenant_pins.v1.seal"]

    public var configIdentity: String
    public var clockSkewSeconds: Int64
    /// Every `[[credential]]` entry in file order, with what routing git needs: url, account,
    /// scopes and username (a registry's settings are docker's, which the front leaves alone).
    public var routes: [CredentialRoute]
    /// Provider id → the tenant it pins, for the providers that pin one.
    public var pins: [String: String]

    public init(configIdentity: String, clockSkewSeconds: Int64, routes: [CredentialRoute], pins: [String: String]) {
        self.configIdentity = configIdentity
        self.clockSkewSeconds = clockSkewSeconds
        self.routes = routes.map { CredentialRoute(url: $0.url, account: $0.account, scopes: $0.scopes, username: $0.username) }
        self.pins = pins
    }

    /// The record of a config with these `providers` (their pins) and routes.
    public init(configIdentity: String, clockSkewSeconds: Int64, routes: [CredentialRoute], providers: [ProviderProfile]) {
        var pins: [String: String] = [:]
        for p in providers { if let realm = p.expectedRealm { pins[p.id] = realm } }
        self.init(configIdentity: configIdentity, clockSkewSeconds: clockSkewSeconds, routes: routes, pins: pins)
    }

    /// The stored form (`MetaFieldReader`'s fields): margin, identity, the routes (a missing
    /// username is `-`), then the pins in sorted order.
    public var encoded: String {
        typealias F = MetaFieldReader
        var out = F.field(String(clockSkewSeconds)) + F.field(configIdentity) + F.field(String(routes.count))
        for route in routes {
            out += F.field(route.url) + F.field(route.account) + (route.username.map { "+" + F.field($0) } ?? "-")
            out += F.field(String(route.scopes.count)) + route.scopes.map(F.field).joined()
        }
        out += F.field(String(pins.count))
        for (provider, realm) in pins.sorted(by: { $0.key < $1.key }) { out += F.field(provider) + F.field(realm) }
        return out
    }

    /// The record of `encoded`, nil for anything that is not exactly one (canonical form only).
    public init?(encoded: String) {
        var reader = MetaFieldReader(encoded)
        guard let skew = reader.number(), let identity = reader.field(), let count = reader.number() else { return nil }
        var routes: [CredentialRoute] = []
        for _ in 0..<count {
            guard let url = reader.field(), let account = reader.field() else { return nil }
            var username: String?
            switch reader.take() {
            case UInt8(ascii: "+"): guard let name = reader.field() else { return nil }; username = name
            case UInt8(ascii: "-"): break
            default: return nil
            }
            guard let scopeCount = reader.number() else { return nil }
            var scopes: [String] = []
            for _ in 0..<scopeCount {
                guard let scope = reader.field() else { return nil }
                scopes.append(scope)
            }
            routes.append(CredentialRoute(url: url, account: account, scopes: scopes, username: username))
        }
        guard let pinCount = reader.number(), pinCount <= 10_000 else { return nil }
        var pins: [String: String] = [:]
        for _ in 0..<pinCount {
            guard let provider = reader.field(), let realm = reader.field() else { return nil }
            pins[provider] = realm
        }
        guard reader.atEnd else { return nil }
        self.init(configIdentity: identity, clockSkewSeconds: skew, routes: routes, pins: pins)
        // Only the canonical form: what the full binary wrote, never a variant of it.
        guard self.encoded == encoded else { return nil }
    }
}
