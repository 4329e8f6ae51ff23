#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore
import AuthDeckPlatform

/// The front on a machine reached over SSH (`AUTHDECK_AGENT` set): `token ACCOUNT`, git's
/// `get` and kubectl's plugin answered through the forwarded agent socket, with no store or
/// key opened or created here.
///
/// Why in the front: a forwarded token is one connect and a frame each way; starting
/// authdeck-full (a large image) for it would cost more than the round trip. Only the plain
/// forms are answered here, read exactly as authdeck-full's parser reads them; anything else
/// (`--json`, cookies, docker, a bad `AUTHDECK_AGENT_TIMEOUT`) is handed over, and
/// authdeck-full answers it through the same socket.
struct RemoteFront {
    /// The commands that answer through the agent when `AUTHDECK_AGENT` is set (authdeck-full
    /// answers the forms the front leaves to it).
    static let commands: Set<String> = ["token", "cookies", "git-credential", "kube-credential", "docker-credential"]

    let socket: String
    let environment: [String: String]

    /// Answers `arguments` and exits, or returns (stdin untouched, or put back) for
    /// authdeck-full to answer.
    func answer(_ arguments: [String]) {
        guard arguments.count >= 3 else { return }
        switch arguments[1] {
        case "token":
            guard let call = TokenCall(arguments), let timeout = call.timeout ?? AgentClient.timeout(environment) else { return }
            let answer = ask("token", "token", timeout, [("account", call.account)] + call.scopes.map { ("scope", $0) })
            guard let token = answer["access_token"], !token.contains("\n") else { fail("the agent's answer holds no token") }
            exit(FrontMain.writeAll(token + "\n") ? 0 : 1)
        case "git-credential" where arguments.count == 3 && arguments[2] == "get":
            guard let timeout = AgentClient.timeout(environment) else { return }
            let input = StandardInput.readAll()
            let request = GitCredentialRequest.read(from: input.bytes)
            guard let url = request.url else { exit(0) }
            // What authdeck-full says of these (and refuses) is said there.
            guard !CredentialRoute.climbs(url), SecretDestination.refusal(.accessToken, to: url) == nil else {
                guard input.replay() else { FullBinary.fail("cannot hand the credential request to \(FullBinary.name): \(String(cString: strerror(errno)))") }
                return
            }
            let answer = ask("git", "git-credential", timeout, [("url", url)])
            guard answer["status"] == "ok" else { exit(0) }  // no route covers it: git asks its next helper
            guard let text = GitCredentialRequest.answer(username: answer["username"] ?? "", token: answer["password"] ?? "", expiresAt: answer.expiresAt) else {
                fail("git-credential for \(TerminalText.inert(url)): the username or token holds a line break; nothing was given to git")
            }
            exit(FrontMain.writeAll(text) ? 0 : 1)
        case "kube-credential":
            guard let call = KubeCall(arguments, environment: environment), let timeout = AgentClient.timeout(environment) else { return }
            let answer = ask("kube", "kube-credential", timeout, [("account", call.account)] + call.scopes.map { ("scope", $0) })
            guard let text = ExecCredentialText.plain(apiVersion: call.apiVersion, token: answer["access_token"] ?? "", expiresAt: answer.expiresAt) else {
                fail("kube-credential: the agent's token cannot be written as an ExecCredential as it is; nothing was given to kubectl")
            }
            exit(FrontMain.writeAll(text) ? 0 : 1)
        default:
            return
        }
    }

    /// The agent's answer (`ok` or `none`); any failure is said on stderr and ends the process
    /// with its status, as authdeck-full reports it.
    func ask(_ op: String, _ client: String, _ timeout: TimeSpan, _ fields: [(String, String)]) -> AgentMessage {
        CrashHygiene.install()  // before any secret is in memory
        do throws(AgentFailure) {
            return try AgentClient(path: socket, timeout: Double(timeout.seconds), client: client).ask(op, fields)
        } catch {
            say(error.sentence)
            exit(error.exitStatus)
        }
    }

    func fail(_ sentence: String) -> Never {
        say(sentence)
        exit(ExitStatus.failure)
    }

    /// One error line on stderr, as authdeck-full's `Output.error` writes it.
    func say(_ sentence: String) {
        let line = "authdeck: \(sentence)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}

/// `authdeck token ACCOUNT [--scope S]… [--timeout SPAN]` in its plain forms, or nil to hand over.
struct TokenCall: Equatable {
    var account: String
    var scopes: [String] = []
    /// `--timeout`; nil: `AUTHDECK_AGENT_TIMEOUT` or the default.
    var timeout: TimeSpan?

    init?(_ arguments: [String]) {
        guard arguments.count >= 3, arguments[1] == "token" else { return nil }
        var account: String?
        var i = 2
        while i < arguments.count {
            let word = arguments[i]
            if word == "--scope" || word == "--timeout" {
                guard i + 1 < arguments.count, KubeCall.plainValue(arguments[i + 1]) else { return nil }
                if word == "--scope" {
                    scopes.append(arguments[i + 1])
                } else {
                    guard let span = TimeSpan(parsing: arguments[i + 1]), timeout == nil else { return nil }
                    timeout = span
                }
                i += 2
            } else {
                guard account == nil, KubeCall.plainValue(word), word != "help" else { return nil }
                account = word
                i += 1
            }
        }
        guard let account else { return nil }
        self.account = account
    }
}
