#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore

/// Why a request through the agent gave nothing: the sentence a remote command prints and the
/// exit status it ends with.
///
/// Every way the socket fails is exit 3, as the agent's own refusals are: a script on the
/// remote machine tests one status for "nothing came through, a person must act", and the
/// sentence names the socket and what that person does (reconnect, or start an agent).
public enum AgentFailure: Error, Equatable, ReportedError {
    /// Nothing accepted the connection: no socket there, or no agent behind it.
    case unreachable(String, AgentSocketError)
    /// The connection closed before an answer: the agent (or the ssh carrying it) is gone.
    case closed(String)
    /// No answer within the person's timeout and the grace after it.
    case noAnswer(String, Double)
    /// Something answered that is not the protocol.
    case garbled(String, String)
    /// The agent answered with a status other than `ok` or `none`: its sentence and exit.
    case answered(status: String, message: String, exit: Int32)

    public var sentence: String {
        let reconnect = "reconnect with `authdeck ssh HOST` (or forward the agent's socket again), or unset \(AgentSocket.variable) to use this machine's own store"
        switch self {
        case .unreachable(let path, let why):
            if case .noAgent = why { return "\(why); the ssh connection that forwarded it may have ended: \(reconnect)" }
            return "no authdeck agent answers at \(path) (\(why)); \(reconnect)"
        case .closed(let path):
            return "the authdeck agent at \(path) closed the connection without answering (it, or the ssh connection forwarding it, has stopped); \(reconnect)"
        case .noAnswer(let path, let seconds):
            return "no answer from the authdeck agent at \(path) within \(TimeSpan(seconds: Int64(seconds.rounded(.up)))) (nobody confirmed, or a sign-in was not finished); try again with a longer --timeout or \(AgentClient.timeoutVariable)"
        case .garbled(let path, let what):
            return "the authdeck agent at \(path) sent \(what), which this authdeck cannot read (is it the same version?)"
        case .answered(_, let message, _):
            return TerminalText.inert(message)
        }
    }

    public var exitStatus: Int32 {
        if case .answered(_, _, let exit) = self { return exit }
        return ExitStatus.needsSignIn
    }

    /// The exit the protocol gives a status when the agent named none.
    static func exit(for status: String) -> Int32 {
        switch status {
        case "refused", "needs-sign-in": ExitStatus.needsSignIn
        case "unavailable": ExitStatus.transient
        default: ExitStatus.failure
        }
    }
}
