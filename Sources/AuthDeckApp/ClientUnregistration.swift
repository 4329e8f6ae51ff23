import AuthDeckCore

/// A provider's dynamic client registration (RFC 7591) deleted at the issuer and then here,
/// only once the provider has no account left.
///
/// Why one rule in one place: the provider's accounts (quarantined ones too, which a restore
/// brings back) hold refresh tokens issued to that client, and deleting the client would
/// leave them unable to renew. `authdeck logout --clear-registration`, the deck's `c` and
/// `authdeck providers unregister` all ask this, so none can delete a client another account
/// still needs.
public struct ClientUnregistration: Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Deleted at the issuer and in the store; what it was ("registered dynamically at …").
        case deleted(String)
        /// The provider held no registration.
        case nothingHeld
        /// Kept: these accounts of the provider renew through it.
        case keptFor([String])
    }

    let store: any AccountStore

    public init(store: any AccountStore) {
        self.store = store
    }

    /// Deletes `holder`'s registration unless an account of `provider` is left. A server that
    /// cannot be reached throws (the registration is kept, to try again).
    public func run(_ holder: any ClientRegistrationHolder, provider: String) async throws -> Outcome {
        let users = try store.accountRows(includeQuarantined: true).filter { $0.providerId == provider }.map(\.id)
        guard users.isEmpty else { return .keptFor(users) }
        guard let gone = try await holder.unregister() else { return .nothingHeld }
        return .deleted(gone)
    }
}
