import AuthDeckCore

/// Who asks the agent: the host it speaks for, the session it came through, and the process
/// the kernel says is on the other end (`SO_PEERCRED`).
public struct AgentPeer: Sendable, Equatable {
    /// The host as the person typed it to `authdeck ssh` (a session), or as the request's
    /// `host=` claims it on the main socket (`hostClaimed`).
    public var host: String
    /// True when `host` is only the remote's word (a plain `ssh -R` to the main socket): such a
    /// host never matches a "connection" grant of a session.
    public var hostClaimed: Bool
    /// The session's id; nil on the main socket.
    public var session: String?
    /// The peer's pid and uid (on a forwarded socket: the local ssh's).
    public var pid: Int32?
    public var uid: UInt32?

    public init(host: String, hostClaimed: Bool, session: String? = nil, pid: Int32? = nil, uid: UInt32? = nil) {
        self.host = host
        self.hostClaimed = hostClaimed
        self.session = session
        self.pid = pid
        self.uid = uid
    }

    /// A peer on the main socket: the host is what the request claims (`host=`), or
    /// "unnamed" when it claims none.
    public static func claimed(by request: AgentMessage, pid: Int32? = nil, uid: UInt32? = nil) -> AgentPeer {
        let named = request["host"].map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : String($0.prefix(255)) }
        return AgentPeer(host: named ?? "unnamed", hostClaimed: true, session: nil, pid: pid, uid: uid)
    }
}
