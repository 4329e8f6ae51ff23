import AuthDeckCore

/// A host's request for an account's credential, waiting in the deck for the person's answer.
///
/// The deck's own copy of the agent's ask: AuthDeckUI imports no use case, and the window needs
/// a deadline on the deck's clock and a ticket the answer goes back under. Every text here came
/// from the remote side or the store, so it is made inert when the ask is made.
public struct DeckAgentAsk: Equatable, Sendable {
    /// What the person answers: once, for the connection (`authdeck ssh`'s lifetime), or no.
    public enum Answer: String, Equatable, Sendable { case once, connection, deny }

    /// The runtime's ticket: the answer goes back to the request waiting under it.
    public var ticket: Int
    public var host: String
    /// The host is the remote's own claim (a plain `ssh -R` to the main socket), not the name
    /// the person typed to `authdeck ssh`: the window says "as it says".
    public var hostClaimed: Bool
    public var accountId: String
    /// `provider/username`.
    public var account: String
    /// The scopes asked, or the URL a cookie or a route goes to.
    public var audience: String
    /// What asked on the remote side (`token`, `git-credential`, …).
    public var client: String
    /// When the request stops waiting: the ask is then denied, and the window says so.
    public var deadline: Instant

    public init(ticket: Int, host: String, hostClaimed: Bool, accountId: String, account: String, audience: String, client: String, deadline: Instant) {
        self.ticket = ticket
        self.host = TerminalText.inert(host)
        self.hostClaimed = hostClaimed
        self.accountId = accountId
        self.account = TerminalText.inert(account)
        self.audience = TerminalText.inert(audience)
        self.client = TerminalText.inert(client)
        self.deadline = deadline
    }

    /// The host as the window and the messages name it: "buildhost, as it says" when claimed.
    public var hostName: String { hostClaimed ? "\(host), as it says" : host }
}
