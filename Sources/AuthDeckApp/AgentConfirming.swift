import AuthDeckCore

/// The person's say over what the agent hands to a host: a port, because who asks differs —
/// the open deck shows a window, `authdeck agent` asks on its terminal or runs the configured
/// `confirm_command`, and tests answer as they are told.
public protocol AgentConfirming: Sendable {
    /// Asks about `ask`; the answer must come before `timeout` seconds (after which the caller
    /// takes it as `.deny`, so a person who walked away never leaves a remote command hanging).
    func confirm(_ ask: AgentAsk, timeout: Double) async -> AgentDecision
}

/// What the person is asked: which host wants which account's credential, for what.
public struct AgentAsk: Sendable, Equatable {
    /// The host as the person typed it to `authdeck ssh`, or as the remote claims it.
    public var host: String
    /// True when `host` is the remote's own claim (a plain `ssh -R` to the main socket).
    public var hostClaimed: Bool
    /// The session (one `authdeck ssh`) the request came through; nil on the main socket.
    public var session: String?
    /// The account's id, and its `provider/username` for the person to read.
    public var accountId: String
    public var accountName: String
    /// What the credential is for: the scopes asked, or the URL a cookie or route goes to.
    public var audience: String
    /// What asked on the remote side (`token`, `git-credential`, …).
    public var client: String

    public init(host: String, hostClaimed: Bool, session: String?, accountId: String, accountName: String, audience: String, client: String) {
        self.host = host
        self.hostClaimed = hostClaimed
        self.session = session
        self.accountId = accountId
        self.accountName = accountName
        self.audience = audience
        self.client = client
    }
}

/// The person's answer to an `AgentAsk`.
public enum AgentDecision: String, Sendable, Equatable {
    /// This one request.
    case once
    /// This request and every later one for the same account from the same session, until the
    /// `authdeck ssh` connection ends.
    case connection
    case deny
}
