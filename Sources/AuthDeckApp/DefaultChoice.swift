import AuthDeckCore
import AuthDeckConfig

/// A provider's default account (`authdeck use`): the one place it is set or cleared, for `use`,
/// the deck's `*`, an ambiguous ACCOUNT's pick, sign-out and prune.
///
/// Why one place: the default decides which account a bare provider id stands for — for
/// `token`, the credential helpers and the front alike — so whether an account may become it,
/// and what is said when it does or cannot, must not depend on who asked. The store is read
/// when asked, not the caller's view of it: the deck's rows may be older than another
/// terminal's `authdeck use`.
public struct DefaultChoice: Sendable {
    /// An account made its provider's default (or found to be it already).
    public struct Made: Equatable, Sendable {
        public let accountId: String
        public let providerId: String
        /// The account was the default before it was asked: nothing was written.
        public let already: Bool

        /// What both callers say after the account's name (the deck's) or its id and
        /// username (`authdeck use`).
        public var said: String {
            "is \(already ? "already" : "now") the default of \(providerId): `\(providerId)` stands for it."
        }
    }

    /// An account that cannot be made its provider's default; nothing was changed. `reason` is
    /// the one wording both callers show (the deck after the account's name, the CLI after its id).
    public struct Refused: Error, ReportedError, Equatable, CustomStringConvertible {
        public let accountId: String
        public let reason: String

        public var sentence: String { "\(accountId): \(reason)" }
        public var description: String { sentence }
        /// What was named is not there to be chosen: the request's mistake, as an ACCOUNT that
        /// matches nothing is.
        public var exitStatus: Int32 { ExitStatus.usage }

        /// Deleted (signed out elsewhere) since it was named.
        static func gone(_ accountId: String) -> Refused {
            Refused(accountId: accountId, reason: "the account is gone from the store (signed out since); `authdeck accounts` lists what is left")
        }

        /// Pruned: a quarantined account serves nothing, so its provider id must not stand for it.
        static func quarantined(_ accountId: String) -> Refused {
            Refused(accountId: accountId, reason: "the account is pruned (in the quarantine); `authdeck prune --undo` brings it back first")
        }
    }

    let store: any AccountStore

    public init(store: any AccountStore) {
        self.store = store
    }

    /// Makes account `accountId` its provider's default.
    ///
    /// The account is opened, not only listed: opening checks its row against its seal, so a
    /// row whose provider a keyless writer changed cannot make itself the default of another
    /// provider (the store's tamper error is thrown).
    public func make(_ accountId: String) throws -> Made {
        guard let stored = try store.account(id: accountId) else { throw Refused.gone(accountId) }
        let account = stored.account
        if account.quarantinedAt != nil { throw Refused.quarantined(accountId) }
        let already = try store.defaultAccount(provider: account.providerId) == account.id
        if !already { try store.setDefaultAccount(account.id, provider: account.providerId) }
        return Made(accountId: account.id, providerId: account.providerId, already: already)
    }

    /// Clears `provider`'s default; the account id it named, or nil when it had none.
    ///
    /// A provider with no default must be one `config` names: a mistyped id is refused rather
    /// than told "nothing to clear". A provider gone from the config whose default is still
    /// stored is cleared, so `config` is read only when there is nothing to clear.
    public func clear(provider: String, config: () throws -> DeckConfig) throws -> String? {
        guard let id = try store.defaultAccount(provider: provider) else {
            try Self.requireConfigured(provider, in: config())
            return nil
        }
        try store.setDefaultAccount(nil, provider: provider)
        return id
    }

    /// Refuses a provider id that `config` does not name (where there is no store yet, and so
    /// no default, `clear` has nothing to read).
    public static func requireConfigured(_ provider: String, in config: DeckConfig) throws {
        guard config.provider(provider) != nil else { throw Refusal.usage(ProviderWiring.unknownProvider(provider, in: config)) }
    }

    /// Clears the defaults that name one of `accounts` (signed out or pruned: they serve
    /// nothing, so their provider ids must not stand for them); returns what was cleared, by
    /// provider. The defaults are read once per provider, not once per account (100,000 pruned
    /// accounts: 6 s).
    public func clear(naming accounts: [Account]) throws -> [(provider: String, account: String)] {
        let ids = Set(accounts.map(\.id))
        var cleared: [(provider: String, account: String)] = []
        for (provider, id) in try store.defaultAccounts(providers: Array(Set(accounts.map(\.providerId)))).sorted(by: { $0.key < $1.key })
        where ids.contains(id) {
            try store.setDefaultAccount(nil, provider: provider)
            cleared.append((provider, id))
        }
        return cleared
    }
}
