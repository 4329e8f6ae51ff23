/// The port through which the deck reads and changes accounts, credentials and events.
///
/// Implemented by AuthDeckStore over SQLite; every method is one transaction.
public protocol AccountStore: Sendable {
    /// Every account with its credentials; quarantined ones only when asked.
    func accounts(includeQuarantined: Bool) throws -> [StoredAccount]
    /// One account with its credentials, quarantined or not.
    func account(id: String) throws -> StoredAccount?
    /// Adds an account and its credentials.
    func insert(_ stored: StoredAccount) throws
    /// Rewrites the account row (identity, times, last error); credentials are untouched.
    func update(_ account: Account) throws
    /// Replaces every credential of an account at once.
    func replaceCredentials(_ credentials: Credentials, accountId: String) throws
    /// Deletes an account and all its credentials (sign-out, purge).
    func delete(accountId: String) throws
    /// Moves accounts to the quarantine; they keep their credentials until purged.
    func quarantine(_ candidates: [PruneCandidate], at: Instant) throws
    /// Brings quarantined accounts back (all of them when `ids` is nil); returns them.
    func restore(ids: [String]?) throws -> [Account]
    /// Deletes quarantined accounts that were quarantined at or before `before`.
    func purgeQuarantine(before: Instant) throws -> [Account]
    func append(_ event: DeckEvent) throws
    func events(since: Instant?, accountId: String?, limit: Int?) throws -> [DeckEvent]
}
