import ArgumentParser
import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckApp
import AuthDeckProviders
import AuthDeckConfig
import AuthDeckStore
#if canImport(Glibc)
import Glibc
#endif

/// `authdeck exec ACCOUNT… -- COMMAND`: renews the accounts, then runs COMMAND with their
/// credentials in its environment and exits with its status.
///
/// Why: a script that needs a token for its whole run should not call `authdeck token` in a
/// loop or put the token in argv. Each account is renewed first so its credential outlives
/// the provider's `renew_before` (five minutes by default). Variables: `AUTHDECK_TOKEN_<NAME>`
/// per token account (NAME: the ACCOUNT argument in capitals, other characters as `_`),
/// `AUTHDECK_TOKEN` when exactly one token account is named, `AUTHDECK_COOKIE_JAR` (a 0600
/// Netscape jar with every named account's cookies, deleted when COMMAND ends however it
/// ends), `AUTHDECK_WEBGATE_TOKENS_<NAME>` (the WebGate access tokens a Mobile and Social
/// account holds, as JSON), `AUTHDECK_ACCOUNTS` (the ids). SIGTERM and SIGHUP are passed on to COMMAND.
struct ExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec", abstract: "Run COMMAND with fresh credentials of ACCOUNT(s) in its environment.",
        discussion: """
            Example: authdeck exec work sp-intranet -- sh -c 'curl -H "Authorization: Bearer $AUTHDECK_TOKEN_WORK" -b "$AUTHDECK_COOKIE_JAR" …'

            There is no --json: standard output and the exit status are COMMAND's own, untouched, \
            and authdeck's messages go to standard error. For the token as JSON use `authdeck token ACCOUNT --json`.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Scope every token must carry (repeatable).", valueName: "scope"))
    var scope: [String] = []
    @Argument(parsing: .remaining, help: ArgumentHelp("ACCOUNT… -- COMMAND [ARG…]: the accounts whose credentials COMMAND gets, then the command.", valueName: "account"),
              completion: Completions.execAccounts)
    var words: [String] = []

    /// The words before and after `--`. ArgumentParser cannot put an array of positionals
    /// before the terminator, and `.remaining` (which still parses options placed before the
    /// first ACCOUNT, and `--help`) drops the terminator itself; so the split is read from
    /// the process's own arguments: everything after their first `--` is the command.
    var command: [String] {
        let raw = CommandLine.arguments
        guard let terminator = raw.firstIndex(of: "--") else { return [] }
        return Array(raw[(terminator + 1)...].suffix(words.count))
    }
    var accounts: [String] { Array(words.dropLast(command.count)) }

    func validate() throws {
        if let option = accounts.first(where: { $0.hasPrefix("-") }) {
            throw ValidationError("\(option): options go before the first ACCOUNT, and the command after --")
        }
        if accounts.isEmpty { throw ValidationError("name at least one ACCOUNT") }
        if command.isEmpty { throw ValidationError("give the command to run after --, e.g. authdeck exec work -- env") }
        let names = accounts.map(Self.variableName)
        if let dup = names.first(where: { n in names.filter { $0 == n }.count > 1 }) {
            throw ValidationError("two ACCOUNT arguments give the same variable name AUTHDECK_TOKEN_\(dup)")
        }
    }

    /// `work` → `WORK`, `sp-intranet/taro@x` → `SP_INTRANET_TARO_X`.
    static func variableName(_ argument: String) -> String {
        String(argument.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let config = try context.loadConfig()
        let store = try context.openStore()
        var variables: [String: String] = [:]
        var tokens: [String] = []
        var cookies: [Cookie] = []
        var ids: [String] = []
        for argument in accounts {
            let stored = try await fresh(try context.resolveAccount(argument, in: store, asking: context.asking(config)), context: context, config: config, store: store)
            let now = context.clock.now()
            ids.append(stored.account.id)
            if let token = stored.credentials.usableAccessToken(for: scope, at: now, skew: .seconds(0)) {
                variables["AUTHDECK_TOKEN_" + Self.variableName(argument)] = token.value.exposedValue
                tokens.append(token.value.exposedValue)
            } else if stored.credentials.cookiesUsable(at: now, skew: .seconds(0)) {
                cookies += stored.credentials.cookies
            } else {
                throw CLIError.needsSignIn(Remedy.forMissingToken(stored, scopes: scope, now: now, skew: config.statePolicy.clockSkew))
            }
            if let gates = Self.webGateTokens(stored.credentials, at: now) {
                variables["AUTHDECK_WEBGATE_TOKENS_" + Self.variableName(argument)] = gates
            }
            try? store.touch(accountId: stored.account.id, at: now)
        }
        if tokens.count == 1 { variables["AUTHDECK_TOKEN"] = tokens[0] }
        variables["AUTHDECK_ACCOUNTS"] = ids.joined(separator: " ")
        let jar = cookies.isEmpty ? nil : try TemporaryJar.create(cookies, environment: context.environment)
        defer { jar?.remove() }
        if let jar { variables["AUTHDECK_COOKIE_JAR"] = jar.path }

        var environment = ChildEnvironment.scrubbed(context.environment, providers: config.providers)
        environment.merge(variables) { _, new in new }
        let status = try await Self.runForwardingSignals(command, environment: environment)
        jar?.remove()
        if status != 0 { throw ExitCode(status) }
    }

    /// The WebGate access tokens `credentials` hold (a Mobile and Social account's, kept by
    /// `authdeck request`) as a JSON array of `realm`, `origin`, `token` and, when one is known,
    /// `expires_at`; nil when there are none. Why with realm and origin: a token is good only
    /// at the WebGate that challenged for it, so the command must pick it by both.
    static func webGateTokens(_ credentials: Credentials, at now: Instant) -> String? {
        let held = WebGateRealm.held(in: credentials).filter { $0.token.isValid(at: now, skew: .seconds(0)) }
        guard !held.isEmpty else { return nil }
        let list: [[String: String]] = held.map { held in
            var o = ["realm": held.gate.realm, "origin": held.gate.origin, "token": held.token.value.exposedValue]
            o["expires_at"] = held.token.expiresAt?.iso8601
            return o
        }
        return (try? JSONSerialization.data(withJSONObject: list, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The account renewed so that it outlives its provider's `renew_before` (`FreshCredentials`).
    func fresh(_ stored: StoredAccount, context: DeckContext, config: DeckConfig, store: DeckStore) async throws -> StoredAccount {
        let (fresh, warning) = try await FreshCredentials(wiring: context.wiring(store), config: config).run(stored, scopes: scope)
        if let warning { context.output.warning(warning) }
        return fresh
    }

    /// Runs the command; while it runs authdeck ignores SIGINT and SIGQUIT (the terminal sends
    /// them to the command too) and passes SIGTERM and SIGHUP on, so it always outlives the
    /// command and can delete the jar.
    static func runForwardingSignals(_ argv: [String], environment: [String: String]) async throws -> Int32 {
        let child = ChildPid()
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGQUIT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            guard sig == SIGTERM || sig == SIGHUP else { continue }
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { if let pid = child.value { kill(pid, sig) } }
            source.resume()
            sources.append(source)
        }
        defer { sources.forEach { $0.cancel() } }
        let process = try ChildProcess.spawn(argv, environment: environment)
        child.value = process.pid
        return await process.wait()
    }
}

/// The running command's pid, read by the signal handlers on another thread.
final class ChildPid: Sendable {
    private let pid = Mutex<pid_t?>(nil)

    var value: pid_t? {
        get { pid.withLock { $0 } }
        set { pid.withLock { $0 = newValue } }
    }
}
