import Foundation
import AuthDeckCore
import AuthDeckOAuth

/// A provider's dynamic client registration as the store keeps it: every field a provider
/// secret named `registration.…`, sealed and bound to the provider (never in config.toml).
///
/// Why bound to the issuer too: a registration is only good at the issuer that made it, and
/// its secret must never be sent elsewhere; a provider whose `endpoints.issuer` was changed
/// registers again instead of presenting another server's client secret.
struct StoredRegistration: Sendable, Equatable {
    static let prefix = "registration."

    var registered: ClientRegistration.Registered
    var issuer: String
    var registeredAt: Instant
    /// The grant types authdeck last asked for (standard names): what config wanted then. A
    /// grant asked for and not registered was refused by the server; config asking for other
    /// grants than these is what makes a sign-in update the registration. A registration
    /// stored before this was kept asked for what it holds.
    var requested: [String]

    init(registered: ClientRegistration.Registered, issuer: String, registeredAt: Instant, requested: [String]) {
        self.registered = registered
        self.issuer = issuer
        self.registeredAt = registeredAt
        self.requested = requested
    }

    /// The registration of `provider`, if one is stored.
    static func load(_ provider: String, from store: any ProviderSecretStore) throws -> StoredRegistration? {
        func field(_ name: String) throws -> String? { try store.providerSecret(prefix + name, provider: provider)?.exposedValue }
        guard let id = try field("client_id"), let issuer = try field("issuer"),
              let at = try field("registered_at").flatMap(Int64.init) else { return nil }
        let registered = ClientRegistration.Registered(
            clientId: id, clientSecret: try field("client_secret").map { Secret($0) },
            accessToken: try field("access_token").map { Secret($0) }, clientURI: try field("client_uri"),
            authMethod: try field("auth_method") ?? "client_secret_basic",
            grantTypes: (try field("grant_types") ?? "").split(separator: " ").map(String.init),
            redirectURI: try field("redirect_uri"))
        let requested = try field("requested_grants").map { $0.split(separator: " ").map(String.init) }
            ?? registered.grantTypes.map { $0 == "device_authorization" ? ClientRegistration.deviceGrant : $0 }
        return StoredRegistration(registered: registered, issuer: issuer, registeredAt: Instant(secondsSinceEpoch: at), requested: requested)
    }

    /// Stores this registration in place of any earlier one, in one transaction.
    func save(_ provider: String, to store: any ProviderSecretStore) throws {
        let r = registered
        var values: [String: String] = ["client_id": r.clientId, "issuer": issuer, "registered_at": String(registeredAt.secondsSinceEpoch),
                                        "auth_method": r.authMethod, "grant_types": r.grantTypes.joined(separator: " "),
                                        "requested_grants": requested.joined(separator: " ")]
        values["client_secret"] = r.clientSecret?.exposedValue
        values["access_token"] = r.accessToken?.exposedValue
        values["client_uri"] = r.clientURI
        values["redirect_uri"] = r.redirectURI
        try store.replaceProviderSecrets(prefix: Self.prefix, with: Dictionary(uniqueKeysWithValues: values.map { (Self.prefix + $0.key, Secret($0.value)) }),
                                         provider: provider)
    }

    /// Deletes `provider`'s registration from the store.
    static func forget(_ provider: String, in store: any ProviderSecretStore) throws {
        try store.replaceProviderSecrets(prefix: prefix, with: [:], provider: provider)
    }

    /// How `providers` and the deck describe it.
    var summary: String { "registered dynamically at \(issuer) on \(registeredAt.iso8601) (client \(registered.clientId))" }
}
