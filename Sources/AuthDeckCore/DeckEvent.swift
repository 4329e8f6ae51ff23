/// One entry of the audit trail: what happened to which account, when and why.
///
/// `detail` is written by authdeck itself from codes and remedies, never from a
/// credential, so the events table can be shown and exported freely.
public struct DeckEvent: Equatable, Hashable, Sendable {
    public enum Kind: String, CaseIterable, Sendable, Codable {
        case accountAdded = "account_added"
        case signInStarted = "sign_in_started"
        case signInSucceeded = "sign_in_succeeded"
        case signInFailed = "sign_in_failed"
        case refreshed
        case refreshFailed = "refresh_failed"
        case pruned
        case restored
        case purged
        case logout
        case imported
        case keyCreated = "key_created"
        case keyMigrated = "key_migrated"
        /// A row of the store that did not match its seal (edited without the key) and was
        /// discarded or refused.
        case tampered
        /// The agent handed a credential to a host (`AgentHandOut` in the detail: host, account,
        /// audience, client, until when — never the secret).
        case agentAnswered = "agent_answered"
        /// The agent refused a request (another user, a host not allowed, a deny, an expired allow).
        case agentRefused = "agent_refused"
        /// A kind written by a newer authdeck that this version does not know.
        case other
    }

    public var id: Int64?
    public var at: Instant
    public var kind: Kind
    public var accountId: String?
    public var providerId: String?
    public var detail: String

    public init(id: Int64? = nil, at: Instant, kind: Kind, accountId: String? = nil, providerId: String? = nil,
                detail: String = "") {
        self.id = id
        self.at = at
        self.kind = kind
        self.accountId = accountId
        self.providerId = providerId
        self.detail = detail
    }
}
