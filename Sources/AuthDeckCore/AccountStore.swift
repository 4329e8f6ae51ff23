/// The port through which the deck reads and changes accounts, credentials and events.
///
/// Implemented by AuthDeckStore over SQLite; every method is one transaction. Reads are narrow:
/// rows or summaries for lists and counts, secrets opened only for the accounts being used.
public protocol AccountStore: Sendable {
    /// Every account with its credentials' kinds, scopes and expiries but no secret values:
    /// what listings, states and pruning decide on, without decrypting a token.
    func accountSummaries(includeQuarantined: Bool) throws -> [StoredAccount]
    /// Summaries of the unquarantined accounts sharing account `id`'s provider and subject (it
    /// included): what one account's derived state depends on.
    func accountSummaries(sharingIdentityWith id: String) throws -> [StoredAccount]
    /// Only the account rows, no credentials: for matching an ACCOUNT argument.
    func accountRows(includeQuarantined: Bool) throws -> [Account]
    /// A provider's accounts (quarantined too) with that subject, or all of them when nil, with
    /// their credentials: only these are decrypted.
    func accounts(providerId: String, subject: String?) throws -> [StoredAccount]
    /// One account with its credentials, quarantined or not.
    func account(id: String) throws -> StoredAccount?
    /// Adds an account and its credentials.
    func insert(_ stored: StoredAccount) throws
    /// Saves a completed sign-in in one transaction: the account row (inserted, or updated
    /// when it exists), all its credentials, and the event.
    func saveSignIn(_ account: Account, credentials: Credentials, event: DeckEvent) throws
    /// Rewrites the account row (identity, times, last error); credentials are untouched.
    func update(_ account: Account) throws
    /// Replaces every credential of an account at once.
    func replaceCredentials(_ credentials: Credentials, accountId: String) throws
    /// Deletes an account and all its credentials (sign-out, purge).
    func delete(accountId: String) throws
    /// Moves to the quarantine those of `candidates` that `stillStale` still finds stale when
    /// given, inside the same transaction, every unquarantined account as it is then
    /// (summaries) — with `candidates` nil, every one `stillStale` returns; returns those moved,
    /// with the reasons found then. They keep their credentials until purged. Why the second
    /// verdict: an account signed in again between a preview and its confirmation must not be
    /// pruned on the preview's word.
    func quarantine(_ candidates: [PruneCandidate]?, at: Instant,
                    stillStale: ([StoredAccount]) -> [PruneCandidate]) throws -> [PruneCandidate]
    /// Brings quarantined accounts back (all of them when `ids` is nil); returns them.
    func restore(ids: [String]?) throws -> [Account]
    /// Deletes quarantined accounts that were quarantined at or before `before`.
    func purgeQuarantine(before: Instant) throws -> [Account]
    func append(_ event: DeckEvent) throws

    // MARK: Default accounts (`authdeck use`)

    /// The account id a bare provider id stands for, if one is set. On the port because
    /// sign-out and prune must clear a default naming the account they remove: left set, the
    /// provider id would name an account that is gone.
    func defaultAccount(provider: String) throws -> String?
    /// Sets (or, with nil, clears) `provider`'s default account.
    func setDefaultAccount(_ id: String?, provider: String) throws
    /// Every provider's default account id, by provider (those with none are left out).
    func defaultAccounts(providers: [String]) throws -> [String: String]

    // MARK: Renewal single-flight (across processes)

    /// Takes the renewal lease of an account for `holder` until `until`, in an IMMEDIATE
    /// transaction. Succeeds when there is no lease, it lapsed, its holder process is gone,
    /// or `holder` already has it; false when someone else holds it.
    func acquireRenewalLease(accountId: String, holder: String, until: Instant, now: Instant) throws -> Bool
    func releaseRenewalLease(accountId: String, holder: String) throws
    /// Commits renewed credentials only if the account still holds the refresh token the
    /// renewal started from (`expected`; nil: the account had none); clears the last error, records the
    /// event, and returns false (writing nothing) when another writer got there first.
    func commitRenewal(_ credentials: Credentials, accountId: String, expected: RefreshTokenStamp?,
                       event: DeckEvent) throws -> Bool
    /// `commitRenewal` for renewals that run at once: each waits off Swift's thread pool, and
    /// those that finish together are committed in one transaction with one sync to disk, each
    /// with its own generation check and its own result.
    func commitRenewalInGroup(_ credentials: Credentials, accountId: String, expected: RefreshTokenStamp?,
                              event: DeckEvent) async throws -> Bool
    /// Sets aside the space a renewal's result needs before its refresh token is spent; fails
    /// (nothing spent, nothing changed) when there is none.
    func reserveRenewalRescue(accountId: String) throws -> RenewalRescue
    /// Seals renewed credentials into the reserved file; the next process to open the store
    /// commits them unless the renewal's own process is still running. Written ahead of every
    /// commit that spends a rotated refresh token (`durable: false`: a killed process leaves its
    /// writes in the page cache, and the commit's own sync follows at once), and again, synced,
    /// when the commit fails.
    func keepInRescue(_ rescue: RenewalRescue, credentials: Credentials, accountId: String, expected: RefreshTokenStamp?,
                      event: DeckEvent, durable: Bool) throws
    /// Gives back a reservation that was not needed.
    func discardRenewalRescue(_ rescue: RenewalRescue)
    /// Commits what renewals whose processes are gone left in rescue files, as opening the
    /// store does: a long-running process (the deck, `watch`, `refresh --all`) looks before
    /// each renewal, so it does not spend a refresh token a killed process already spent.
    func commitLeftRescues()
    /// Records a failed renewal or sign-in: sets the last error (when given), bumps the
    /// failure count, appends the event. Never touches credentials.
    func recordFailure(accountId: String, error: AccountError?, event: DeckEvent) throws
    func events(since: Instant?, accountId: String?, limit: Int?) throws -> [DeckEvent]
}
