#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore
import AuthDeckPlatform

/// `authdeck`: a small front that answers `authdeck token ACCOUNT`, `git-credential get` and
/// `kube-credential ACCOUNT` itself when a cached token is valid, `status --short` from the
/// store, and `exec`s `authdeck-full` for everything else.
///
/// Why two binaries: scripts and shell prompts call `authdeck token` constantly, and the full
/// binary is slow to start (a large image: GRDB, TOMLKit, ArgumentParser, Foundation, ncurses);
/// this one links only SQLite, AES-GCM and AuthDeckCore. Output, exit statuses and behaviour
/// are the full binary's in every case: the front either prints the very token `authdeck-full`
/// would print, or hands over untouched.
@main
enum FrontMain {
    static func main() {
        let arguments = CommandLine.arguments
        // Run as `docker-credential-authdeck` (a link docker finds on PATH): docker's helper.
        if arguments.first.map({ $0.split(separator: "/").last == "docker-credential-authdeck" }) == true {
            FullBinary.exec(["authdeck", "docker-credential"] + arguments.dropFirst())
        }
        // On a machine reached over SSH the agent answers these; no local store is opened or made.
        // (A getenv first: the cached token's path builds no environment for it.)
        if arguments.count > 1, RemoteFront.commands.contains(arguments[1]), getenv(AgentSocket.variable) != nil {
            let env = environment()
            if let socket = AgentSocket.forwarded(env) {
                RemoteFront(socket: socket, environment: env).answer(arguments)
                FullBinary.exec(arguments)
            }
        }
        if arguments.count == 3, arguments[1] == "token", !arguments[2].hasPrefix("-") {
            CrashHygiene.install()  // before any secret is in memory
            if case .found(let found) = CachedTokenReader(environment: environment()).lookUp(.token(account: arguments[2])) {
                exit(writeAll(found.value + "\n") ? 0 : 1)
            }
            CrashHygiene.handOver()
        }
        // A shell prompt's or tmux's line: derived from the store, no secret opened.
        if StatusReader.isShortStatus(arguments) {
            CrashHygiene.install()  // the data key is opened to believe the record
            if let line = StatusReader(environment: environment()).shortLine() {
                exit(line.isEmpty || writeAll(line + "\n") ? 0 : 1)
            }
            CrashHygiene.handOver()
        }
        // git's helper for a URL, as `setup-git` writes it: the request is on stdin.
        if arguments.count == 3, arguments[1] == "git-credential", arguments[2] == "get" {
            CrashHygiene.install()
            let input = StandardInput.readAll()
            if let url = GitCredentialRequest.read(from: input.bytes).url,
               case .found(let found) = CachedTokenReader(environment: environment()).lookUp(.git(url: url)),
               let answer = GitCredentialRequest.answer(username: found.username, token: found.value, expiresAt: found.expiresAt) {
                exit(writeAll(answer) ? 0 : 1)
            }
            CrashHygiene.handOver()
            // authdeck-full reads the same request; a request that cannot be given back is an error.
            guard input.replay() else { FullBinary.fail("cannot hand the credential request to \(FullBinary.name): \(String(cString: strerror(errno)))") }
        }
        // kubectl's exec plugin, as `setup-kube` writes it.
        if arguments.count >= 3, arguments[1] == "kube-credential" {
            let env = environment()
            if let call = KubeCall(arguments, environment: env) {
                CrashHygiene.install()
                if case .found(let found) = CachedTokenReader(environment: env).lookUp(.kube(account: call.account, scopes: call.scopes)),
                   let answer = ExecCredentialText.plain(apiVersion: call.apiVersion, token: found.value, expiresAt: found.expiresAt) {
                    exit(writeAll(answer) ? 0 : 1)
                }
                CrashHygiene.handOver()
            }
        }
        FullBinary.exec(arguments)
    }

    /// This process's environment as a dictionary (what path resolution takes).
    static func environment() -> [String: String] {
        var out: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let eq = pair.firstIndex(of: "=") {
                out[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
            }
            entry += 1
        }
        return out
    }

    /// Writes all of `text` to stdout; false (having said why) when stdout refuses it.
    static func writeAll(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                // As the full binary says it (Output.failed).
                let note = "authdeck: cannot write to standard output: " + String(cString: strerror(n < 0 ? errno : EIO)) + "\n"
                _ = note.withCString { write(2, $0, strlen($0)) }
                return false
            }
            bytes = bytes.dropFirst(n)
        }
        return true
    }
}
