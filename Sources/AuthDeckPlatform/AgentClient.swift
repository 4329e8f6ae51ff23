#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore

/// One request to the authdeck agent and its answer, as the client on a machine reached over
/// SSH asks it (`AUTHDECK_AGENT`), and as `authdeck ssh` asks the local agent for a session.
///
/// In Platform (Glibc only) because the front is the client for `token` and the git and kubectl
/// helpers: a forwarded token must cost no more than a connect, a frame each way and an exit.
/// Every step is bounded (connect, send, and the answer by the person's `timeout` plus 2
/// seconds), so a remote command never hangs on an agent that is gone or silent.
public struct AgentClient: Sendable {
    /// The socket asked through (`AUTHDECK_AGENT` on a remote machine).
    public let path: String
    /// Seconds the client waits for the person's confirmation and any sign-in; sent as
    /// `timeout=` so the agent stops waiting when the client does.
    public let timeout: Double
    /// What asks (`token`, `git-credential`, …), for the agent's events.
    public let client: String

    /// How long the agent's answer may come after `timeout` (its own bookkeeping, the network).
    public static let grace = 2.0
    /// The default wait when neither `--timeout` nor `AUTHDECK_AGENT_TIMEOUT` says: long
    /// enough for a person to read a confirmation and finish a device-code sign-in.
    public static let defaultTimeout = TimeSpan.minutes(2)
    /// The variable that bounds the helpers' wait (git, kubectl and docker pass no options).
    public static let timeoutVariable = "AUTHDECK_AGENT_TIMEOUT"

    public init(path: String, timeout: Double, client: String) {
        self.path = path
        self.timeout = timeout
        self.client = client
    }

    /// The wait `AUTHDECK_AGENT_TIMEOUT` names, the default when unset; nil when it is set to
    /// something that is not a time span (the caller says so, naming the variable).
    public static func timeout(_ environment: [String: String]) -> TimeSpan? {
        guard let text = environment[timeoutVariable], !text.isEmpty else { return defaultTimeout }
        return TimeSpan(parsing: text)
    }

    /// Sends `op` with `fields` (plus `v`, `timeout`, `host` and `client`) and reads the answer.
    /// `ok` and `none` come back; every other status, and every way the socket fails, is an
    /// `AgentFailure` carrying the sentence and exit status the command reports.
    public func ask(_ op: String, _ fields: [(String, String)]) throws(AgentFailure) -> AgentMessage {
        let connection: AgentConnection
        do { connection = try AgentSocket.connect(path, timeout: min(timeout, 10)) } catch {
            throw .unreachable(path, error)
        }
        defer { connection.close() }
        return try exchange(on: connection, op, fields)
    }

    /// Sends the request on an open connection and reads one answer (`session` keeps the
    /// connection afterwards, so it opens and closes it itself).
    public func exchange(on connection: AgentConnection, _ op: String, _ fields: [(String, String)]) throws(AgentFailure) -> AgentMessage {
        // `session` names the host it is for; every other request claims this machine's name.
        let host = fields.contains { $0.0 == "host" } ? [] : [("host", Self.hostName())]
        let request = AgentMessage([("op", op)] + fields + [("timeout", Self.seconds(timeout))] + host + [("client", client)])
        do { try connection.send(request, timeout: 10) } catch {
            throw error == .closed ? AgentFailure.closed(path) : AgentFailure.unreachable(path, error)
        }
        let answer: AgentMessage
        do { answer = try connection.receive(timeout: timeout + Self.grace) } catch {
            switch error {
            case .closed: throw .closed(path)
            case .timedOut: throw .noAnswer(path, timeout)
            case .malformed(let why): throw .garbled(path, why.description)
            default: throw .garbled(path, error.description)
            }
        }
        switch answer["status"] {
        case "ok"?, "none"?: return answer
        case let status?:
            let exit = answer["exit"].flatMap { Int32($0) } ?? AgentFailure.exit(for: status)
            throw .answered(status: status, message: answer["message"] ?? "the agent answered \(status)", exit: exit)
        case nil: throw .garbled(path, "an answer without a status")
        }
    }

    /// `seconds` as the protocol writes a decimal (no exponent, at most millisecond precision).
    static func seconds(_ value: Double) -> String {
        let ms = Int64((max(0, min(value, 86_400 * 365)) * 1000).rounded())
        let fraction = ms % 1000
        return fraction == 0 ? "\(ms / 1000)" : "\(ms / 1000)." + String(String(fraction + 1000).dropFirst())
    }

    /// This machine's name, which the agent shows as the host's claim on its main socket.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        return String(cString: buffer)
    }
}
