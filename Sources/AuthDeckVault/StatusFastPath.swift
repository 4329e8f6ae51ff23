import AuthDeckCore

/// What lets the `authdeck` front answer `authdeck status --short` without reading config.toml:
/// the state policy, the prune settings and each provider as the state rules see it
/// (`ProviderProfile.stateRulesView`), as `authdeck-full` last read the config file.
///
/// Why: a shell prompt or tmux's status bar runs `status --short` every few seconds, and the
/// full binary's start-up and TOML parse would be most of its cost. With this record the front
/// derives every account's state through the same Core code (`DeckAssessment`, `StatusLine`)
/// from the same rows. Sealed like the other fast-path records (`SealingContext.statusFastPath`):
/// a writer without the key could otherwise hide a stale account or a removed provider. The
/// front believes it only for the config file it names.
public struct StatusFastPath: Equatable, Sendable {
    /// The meta-table key of the record; a new format takes a new key.
    public static let metaKey = "fast_status.v1"
    /// The meta-table key of the record's seal.
    public static let sealKey = "fast_status.v1.seal"

    public var configIdentity: String
    public var statePolicy: StatePolicy
    public var pruneSettings: PruneSettings
    /// The providers as the state rules see them; nil when there was no config file (then no
    /// provider counts as removed: `DeckConfig.knownProviders`).
    public var providers: [ProviderProfile]?

    public init(configIdentity: String, statePolicy: StatePolicy, pruneSettings: PruneSettings, providers: [ProviderProfile]?) {
        self.configIdentity = configIdentity
        self.statePolicy = statePolicy
        self.pruneSettings = pruneSettings
        self.providers = providers?.map(\.stateRulesView)
    }

    /// The stored form: length-prefixed fields (`MetaFieldReader`); an absent span or
    /// provider list is `-`, options in sorted order.
    public var encoded: String {
        typealias F = MetaFieldReader
        var out = F.field(configIdentity)
        for span in [statePolicy.expiringSoonWindow, statePolicy.clockSkew, pruneSettings.signInGrace, pruneSettings.rejectedGrace] {
            out += F.field(String(span.seconds))
        }
        out += pruneSettings.unusedAfter.map { "+" + F.field(String($0.seconds)) } ?? "-"
        guard let providers else { return out + "-" }
        out += "+" + F.field(String(providers.count))
        for p in providers {
            out += F.field(p.id) + F.field(p.kind.rawValue) + (p.clientSecretEnv != nil ? "s" : "n") + F.field(String(p.options.count))
            for (key, value) in p.options.sorted(by: { $0.key < $1.key }) { out += F.field(key) + F.field(value) }
        }
        return out
    }

    /// The record of `encoded`, nil for anything that is not exactly one (canonical form only).
    public init?(encoded: String) {
        var reader = MetaFieldReader(encoded)
        guard let identity = reader.field(), let window = reader.number(), let skew = reader.number(),
              let signInGrace = reader.number(), let rejectedGrace = reader.number() else { return nil }
        var unused: TimeSpan?
        switch reader.take() {
        case UInt8(ascii: "+"): guard let n = reader.number() else { return nil }; unused = .seconds(n)
        case UInt8(ascii: "-"): break
        default: return nil
        }
        var providers: [ProviderProfile]?
        switch reader.take() {
        case UInt8(ascii: "-"): break
        case UInt8(ascii: "+"):
            guard let count = reader.number(), count <= 10_000 else { return nil }
            var list: [ProviderProfile] = []
            for _ in 0..<count {
                guard let id = reader.field(), let kind = reader.field().flatMap(ProviderKind.init(rawValue:)) else { return nil }
                let secret: Bool
                switch reader.take() {
                case UInt8(ascii: "s"): secret = true
                case UInt8(ascii: "n"): secret = false
                default: return nil
                }
                guard let optionCount = reader.number(), optionCount <= 100 else { return nil }
                var options: [String: String] = [:]
                for _ in 0..<optionCount {
                    guard let key = reader.field(), let value = reader.field() else { return nil }
                    options[key] = value
                }
                list.append(ProviderProfile(id: id, kind: kind, options: options, clientSecretEnv: secret ? "configured" : nil))
            }
            providers = list
        default: return nil
        }
        guard reader.atEnd else { return nil }
        self.init(configIdentity: identity, statePolicy: StatePolicy(expiringSoonWindow: .seconds(window), clockSkew: .seconds(skew)),
                  pruneSettings: PruneSettings(signInGrace: .seconds(signInGrace), rejectedGrace: .seconds(rejectedGrace), unusedAfter: unused),
                  providers: providers)
        guard self.encoded == encoded else { return nil }
    }
}
