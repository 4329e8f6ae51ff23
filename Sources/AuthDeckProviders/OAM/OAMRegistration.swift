import AuthDeckCore

/// An OAM mobile client's registration handle: the client assertion the server issued for one
/// user on this device, with the extras that came with it.
///
/// Kept in the account's sealed extras (`oam.registration.*`) rather than in the provider's
/// secrets (`ProviderSecretStore`): the assertion is bound to a user as well as a device, so
/// it belongs to that user's account. As an extra it is sealed under the data key and bound to
/// the account's provider and subject (a copy moved to another account fails to open); a
/// renewal that registers again commits the new assertion in the same transaction as the
/// tokens it bought, under the renewal lease; a plain logout keeps it with the remembered
/// username (`OAMAdapter.keptAfterSignOut`), and `logout --clear-registration` deletes it with
/// the account. It is never written to config.toml, and no listing opens it.
struct OAMRegistration: Equatable, Sendable {
    static let prefix = "oam.registration."
    /// The response fields PROVIDERS.md names, kept as the server sent them (objects as JSON text).
    static let detailNames = ["oracle_tk_context", "oracle_grant_type", "oracle_aux_tokens", "oracle_token_in_server_device_store"]

    var assertion: Secret
    /// When the server said the assertion lapses (`expires_in`); nil when it did not say.
    var expiresAt: Instant?
    /// The device id sent in the device profile: a registration made again sends the same one.
    var deviceId: String
    var details: [String: String]

    init(assertion: Secret, expiresAt: Instant?, deviceId: String, details: [String: String]) {
        self.assertion = assertion
        self.expiresAt = expiresAt
        self.deviceId = deviceId
        self.details = details
    }

    /// The handle an account holds, or nil when it holds none.
    init?(extras: [String: Secret]) {
        guard let assertion = extras[Self.prefix + "assertion"], let device = extras[Self.prefix + "device"] else { return nil }
        self.assertion = assertion
        deviceId = device.exposedValue
        expiresAt = extras[Self.prefix + "expires_at"].flatMap { Int64($0.exposedValue) }.map(Instant.init(secondsSinceEpoch:))
        var details: [String: String] = [:]
        for name in Self.detailNames {
            if let value = extras[Self.prefix + name]?.exposedValue, !value.isEmpty { details[name] = value }
        }
        self.details = details
    }

    /// The handle as account extras: every name written, empty when unknown, so a handle merged
    /// over an older one (a renewal's extras win) leaves nothing of the older behind.
    var extras: [String: Secret] {
        var out: [String: Secret] = [Self.prefix + "assertion": assertion, Self.prefix + "device": Secret(deviceId),
                                     Self.prefix + "expires_at": Secret(expiresAt.map { String($0.secondsSinceEpoch) } ?? "")]
        for name in Self.detailNames { out[Self.prefix + name] = Secret(details[name] ?? "") }
        return out
    }

    /// Whether an extra's name belongs to a registration handle.
    static func isPart(_ name: String) -> Bool { name.hasPrefix(prefix) }

    /// True once the server's stated lifetime has passed: registering again beats sending an
    /// assertion the server will refuse.
    func hasLapsed(at now: Instant) -> Bool { expiresAt.map { $0 <= now } ?? false }
}
