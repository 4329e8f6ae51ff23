import ArgumentParser
import Foundation
import AuthDeckCore

/// `authdeck setup-kube --user NAME ACCOUNT [--scope S]…`: the kubeconfig user that asks
/// `authdeck kube-credential` for its token, written with `kubectl config set-credentials` when
/// kubectl is installed, else printed as YAML to paste.
///
/// ACCOUNT, each scope and NAME are checked first (`argumentProblem`), not escaped: kubectl
/// splits `--exec-arg` at commas (and reads it as CSV), so `--scope 'x,--config,/tmp/evil.toml'`
/// became three arguments and every `kubectl` run took authdeck's config from the attacker's
/// file; a value starting with `-` is an option to whoever reads it next. Writing the
/// kubeconfig stanza ourselves would avoid kubectl's parsing, but the file is kubectl's to
/// merge and lock (KUBECONFIG may name several) and authdeck has no YAML writer to trust
/// with it; no account name, scope or kubeconfig user needs a leading `-`, a comma, a quote
/// or a control character, so refusing them loses nothing.
struct SetupKubeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup-kube", abstract: "Write a kubeconfig user whose token comes from ACCOUNT (through kube-credential).")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "The kubeconfig user to write.") var user: String
    @Argument(help: "The account (a provider id: its default account).", completion: Completions.tokenAccounts) var account: String
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Scope the token must carry (repeatable): the cluster's audience.", valueName: "scope"))
    var scope: [String] = []

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        for (what, value) in [("ACCOUNT", account), ("--user", user)] + scope.map({ ("--scope", $0) }) {
            if let problem = Self.argumentProblem(value) {
                throw CLIError.usage("setup-kube: \(what) \"\(TerminalText.inert(value))\" \(problem); kubectl would split or read it as options of kube-credential, so nothing was written")
            }
        }
        let command = SetupGitCommand.frontPath
        let args = ["kube-credential", account] + scope.flatMap { ["--scope", $0] }
        let kubectl = ["/usr/bin/kubectl", "/usr/local/bin/kubectl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let kubectl else {
            let yaml = """
                users:
                - name: \(Self.yamlQuoted(user))
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: \(Self.yamlQuoted(command))
                      args: [\(args.map(Self.yamlQuoted).joined(separator: ", "))]
                      interactiveMode: IfAvailable
                      provideClusterInfo: false

                """
            return context.output.raw("kubectl is not installed; add this to your kubeconfig:\n" + yaml)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: kubectl)
        // The command's environment: its HOME or KUBECONFIG names the kubeconfig written.
        p.environment = context.environment
        p.arguments = ["config", "set-credentials", user, "--exec-api-version=client.authentication.k8s.io/v1",
                       "--exec-command=\(command)", "--exec-interactive-mode=IfAvailable"] + args.map { "--exec-arg=\($0)" }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw CLIError.failure("kubectl config set-credentials failed: \(TerminalText.inert(said.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
        context.output.raw("kubeconfig user \(user) now asks authdeck for \(account)'s token\n")
    }

    /// What makes `value` unfit for a kubeconfig exec argument or user, or nil: empty, a
    /// leading `-` (an option to kubectl or to kube-credential), a comma or a double quote
    /// (kubectl's CSV splitting of `--exec-arg`), a control character — C1's NEL included — or a
    /// line or paragraph separator or an invisible format character (YAML stores U+0085 and
    /// U+2028 as line breaks that read back as spaces, so what kubectl runs would differ from
    /// what was asked).
    static func argumentProblem(_ value: String) -> String? {
        if value.isEmpty { return "is empty" }
        if value.hasPrefix("-") { return "starts with \"-\"" }
        if value.contains(",") { return "holds a comma" }
        if value.contains("\"") { return "holds a double quote" }
        let unfit: [Unicode.GeneralCategory] = [.control, .lineSeparator, .paragraphSeparator, .format]
        if value.unicodeScalars.contains(where: { unfit.contains($0.properties.generalCategory) }) { return "holds a control character" }
        return nil
    }

    /// `text` as a YAML double-quoted scalar (the install path may hold a space or a `#`).
    static func yamlQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
