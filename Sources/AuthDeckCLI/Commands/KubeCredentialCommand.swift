import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckApp
import AuthDeckPlatform

/// `authdeck kube-credential ACCOUNT [--scope S]…`: a kubectl exec credential plugin. Prints an
/// `ExecCredential` (`client.authentication.k8s.io/v1`, or `v1beta1` when kubectl's
/// `KUBERNETES_EXEC_INFO` asks for it) with the account's token and its expiry, renewed
/// silently when needed.
///
/// A sign-in that needs a person happens only when kubectl says the terminal is interactive
/// (`spec.interactive`); otherwise exit 3 with the remedy on stderr, which kubectl shows.
struct KubeCredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kube-credential", abstract: "kubectl's exec credential plugin: an ExecCredential with ACCOUNT's token.",
        discussion: """
            There is no --json: this helper speaks kubectl's ExecCredential JSON (client.authentication.k8s.io), \
            which kubectl reads, and nothing else. For the token as JSON use `authdeck token ACCOUNT --json`.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The account (a provider id: its default account).", completion: Completions.tokenAccounts) var account: String
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Scope the token must carry (repeatable): the cluster's audience.", valueName: "scope"))
    var scope: [String] = []

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        NetworkWarmup.beginIfDue()
        let info = KubeExecInfo(context.environment["KUBERNETES_EXEC_INFO"])
        // With `provideClusterInfo`, kubectl names the server the token goes to: the one decision holds it.
        if let server = info.server, let refusal = SecretDestination.refusal(.accessToken, to: server) {
            throw CLIError.failure("kube-credential for \(TerminalText.inert(server)): \(refusal); nothing was given to kubectl")
        }
        let configIdentity = ConfigFileIdentity.of(path: context.configPath)
        let config = try context.loadConfig()
        let route = CredentialRoute(url: "kubectl", account: account, scopes: scope)
        // kubectl says whether a person is at the terminal; run by hand, the terminal decides.
        let askable = context.environment["KUBERNETES_EXEC_INFO"] == nil || info.interactive
        let token: AccessToken
        do {
            token = try await RoutedToken(context: context, config: config, configIdentity: configIdentity, ask: askable).token(for: route, fromConfig: false).0
        } catch let error as ReportedError where error.exitStatus == ExitStatus.needsSignIn && info.interactive {
            // kubectl has a terminal: the person can sign in now, on stderr, as `login` would.
            let store = try context.openStore()
            let stored = try context.resolveAccount(account, in: store)
            context.output.note("authdeck: \(error.sentence)\nSigning in to \(stored.account.providerId) for kubectl…")
            _ = try await CommandLineSignIn(wiring: context.wiring(store), config: config).run(
                stored.account.providerId, CommandLineSignIn.Request(flow: nil, username: stored.account.username, openBrowser: true,
                                                                     timeout: .minutes(10), connectivity: nil, remember: nil, passwordGiven: false),
                presenter: CLIPresenter(context),
                password: { user in try PasswordReader.read(file: nil, environment: context.environment, prompt: "Password for \(user): ") },
                note: { context.output.note($0) })
            token = try await RoutedToken(context: context, config: config, configIdentity: configIdentity).token(for: route, fromConfig: false).0
        }
        context.output.raw(try Self.execCredential(token: token.value.exposedValue, expiresAt: token.expiresAt, apiVersion: info.apiVersion))
    }

    /// kubectl's `ExecCredential` for a token and its expiry (sorted keys, slashes unescaped:
    /// what the front's `ExecCredentialText` writes byte for byte), a local token's or the agent's.
    static func execCredential(token: String, expiresAt: Instant?, apiVersion: String) throws -> String {
        var status: [String: Any] = ["token": token]
        if let expiry = expiresAt { status["expirationTimestamp"] = expiry.iso8601 }
        let credential: [String: Any] = ["apiVersion": apiVersion, "kind": "ExecCredential", "status": status]
        let data = try JSONSerialization.data(withJSONObject: credential, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// What kubectl says of the call in `KUBERNETES_EXEC_INFO`: the API version it wants back and
/// whether a person is at the terminal. Missing or unreadable: v1, not interactive.
struct KubeExecInfo {
    var apiVersion = "client.authentication.k8s.io/v1"
    var interactive = false
    /// The cluster's server, when the kubeconfig's exec stanza sets `provideClusterInfo`.
    var server: String?

    init(_ text: String?) {
        guard let text, let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return }
        if let version = json["apiVersion"] as? String,
           ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"].contains(version) { apiVersion = version }
        interactive = ((json["spec"] as? [String: Any])?["interactive"] as? Bool) ?? false
        server = ((json["spec"] as? [String: Any])?["cluster"] as? [String: Any])?["server"] as? String
    }
}
