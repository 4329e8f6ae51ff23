#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore

/// The agent's Unix socket: where it lives, listening on it, and connecting to it.
///
/// In Platform (Glibc only) because both binaries use it: the front is the client for `token`
/// and the git and kubectl helpers on a machine reached over SSH (`AUTHDECK_AGENT`), the full
/// binary serves it (`authdeck agent`, the open deck) and is the client for the rest.
public enum AgentSocket {
    /// The variable naming the socket a remote machine's authdeck asks through.
    public static let variable = "AUTHDECK_AGENT"

    /// The socket `AUTHDECK_AGENT` names, or nil when it is unset or empty.
    public static func forwarded(_ environment: [String: String]) -> String? {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where this user's agent listens: `$XDG_RUNTIME_DIR/authdeck/agent.sock` (a per-user
    /// tmpfs), else `/tmp/authdeck-UID/agent.sock`; `AUTHDECK_AGENT_SOCKET` overrides both.
    public static func localPath(_ environment: [String: String]) -> String {
        if let named = environment["AUTHDECK_AGENT_SOCKET"], !named.isEmpty { return named }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/authdeck/agent.sock"
        }
        return "/tmp/authdeck-\(getuid())/agent.sock"
    }

    /// Connects to the socket at `path`, waiting at most `timeout` seconds for the agent to accept.
    public static func connect(_ path: String, timeout: Double) throws(AgentSocketError) -> AgentConnection {
        var address = sockaddr_un()
        guard fill(&address, path: path) else { throw .pathTooLong(path) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            let code = errno
            // A Unix socket whose backlog is full answers EAGAIN; anything else is "not there".
            guard code == EAGAIN || code == EINPROGRESS else {
                close(fd)
                throw .noAgent(path, code)
            }
            let connection = AgentConnection(fd: fd)
            guard connection.wait(for: Int16(POLLOUT), until: AgentConnection.deadline(after: timeout)) else {
                close(fd)
                throw .timedOut("connecting to \(path)")
            }
            return connection
        }
        return AgentConnection(fd: fd)
    }

    /// Listens at `path`: the directory made 0700 (and refused unless this user owns it and
    /// nobody else may write it), a stale socket of a dead agent replaced, the socket 0600.
    /// `AgentSocketError.inUse` when a live agent already answers there.
    public static func listen(_ path: String) throws(AgentSocketError) -> AgentListener {
        var address = sockaddr_un()
        guard fill(&address, path: path) else { throw .pathTooLong(path) }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        if !directory.isEmpty, mkdir(directory, 0o700) != 0, errno != EEXIST { throw .system("mkdir \(directory)", errno) }
        var info = stat()
        guard lstat(directory.isEmpty ? "/" : directory, &info) == 0 else { throw .system("stat \(directory)", errno) }
        if info.st_uid != getuid() || info.st_mode & 0o022 != 0 || info.st_mode & S_IFMT != S_IFDIR {
            throw .unsafeDirectory(directory)
        }
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
            if let live = try? connect(path, timeout: 0.5) {
                live.close()
                throw .inUse(path)
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        // Made 0600 right after bind; until then the 0700 directory checked above keeps everyone
        // else out. (Not by umask: it is the whole process's, and another thread's mkdir or file
        // made in that moment would lose its permissions.)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw .system("bind \(path)", code)
        }
        guard chmod(path, 0o600) == 0 else {
            let code = errno
            close(fd)
            unlink(path)
            throw .system("chmod \(path)", code)
        }
        guard Glibc.listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            unlink(path)
            throw .system("listen \(path)", code)
        }
        return AgentListener(fd: fd, path: path)
    }

    static func fill(_ address: inout sockaddr_un, path: String) -> Bool {
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return true
    }
}

/// Why the socket could not be used; each says what and where, never a secret.
public enum AgentSocketError: Error, Equatable, CustomStringConvertible {
    case noAgent(String, Int32)
    case pathTooLong(String)
    case timedOut(String)
    case closed
    case malformed(AgentMessage.Malformed)
    case system(String, Int32)
    case unsafeDirectory(String)
    case notASocket(String)
    case inUse(String)

    public var description: String {
        switch self {
        case .noAgent(let path, let code): "no authdeck agent answers at \(path) (\(String(cString: strerror(code))))"
        case .pathTooLong(let path): "the socket path \(path) is empty or longer than a Unix socket allows (107 bytes)"
        case .timedOut(let what): "timed out \(what)"
        case .closed: "the other side closed the connection"
        case .malformed(let why): "the other side sent \(why)"
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        case .unsafeDirectory(let path): "\(path) is not a directory of this user's that only this user may write"
        case .notASocket(let path): "\(path) exists and is not a socket; nothing was replaced"
        case .inUse(let path): "an authdeck agent already answers at \(path)"
        }
    }
}
