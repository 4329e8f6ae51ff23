import ArgumentParser
import Foundation
import AuthDeckCore

/// `authdeck setup-kube --user NAME ACCOUNT [--scope S]…`: the kubeconfig user that asks
/// `authdeck kube-credential` for its token, written with `kubectl config set-credentials` when
/// kubectl is installed, else printed as YAML to paste.
struct SetupKubeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup-kube", abstract: "Write a kubeconfig user whose token comes from ACCOUNT (through kube-credential).")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "The kubeconfig user to write.") var user: String
    @Argument(help: "The account (a provider id: its default account).", completion: Completions.tokenAccounts) var account: String
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Scope the token must carry (repeatable): the cluster's audience.", valueName: "scope"))
    var scope: [String] = []

    func run() async throws {
        let command = SetupGitCommand.frontPath
        let args = ["kube-credential", account] + scope.flatMap { ["--scope", $0] }
        let kubectl = ["/usr/bin/kubectl", "/usr/local/bin/kubectl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let kubectl else {
            let yaml = """
                users:
                - name: \(user)
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: \(command)
                      args: [\(args.map { "\"\($0)\"" }.joined(separator: ", "))]
                      interactiveMode: IfAvailable
                      provideClusterInfo: false

                """
            return Output.raw("kubectl is not installed; add this to your kubeconfig:\n" + yaml)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: kubectl)
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
        Output.raw("kubeconfig user \(user) now asks authdeck for \(account)'s token\n")
    }
}
