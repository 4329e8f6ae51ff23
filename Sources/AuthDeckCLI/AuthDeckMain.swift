import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckConfig
import AuthDeckApp
import Foundation
import AuthDeckPlatform
import AuthDeckTerminal
import AuthDeckEmulator

/// Entry point: runs the command and turns every failure into authdeck's exit statuses
/// (0 ok, 1 failure, 2 usage/ambiguity, 3 needs sign-in, 4 transient), which
/// ArgumentParser alone would not (it uses 64 for usage errors).
@main
enum AuthDeckMain {
    static func main() async {
        // Installed, `libexec/authdeck/authdeck-idp` is a link to this binary: the emulator.
        if EmulatorMain.isInvoked(as: CommandLine.arguments.first ?? "") {
            await EmulatorMain.run(Array(CommandLine.arguments.dropFirst()))
        }
        _ = NetworkWarmup.due  // taken out of the environment before anything else runs
        MallocTuning.apply()
        CrashHygiene.install()
        SignalShield.install()
        do {
            let args = CommandLine.arguments.dropFirst()
            // The plain forms of `token`, the deck and `accounts`: straight to the command (see FastArguments).
            // With AUTHDECK_AGENT set, `token` answers through the agent (RemoteMode), never the local store.
            if AgentSocket.forwarded(ProcessInfo.processInfo.environment) == nil, let fast = FastArguments(Array(args)) {
                let context = DeckContext(storeFlag: fast.store, configFlag: fast.config)
                switch fast.command {
                case .token(let account): return try await TokenCommand.printToken(account: account, scopes: [], context: context)
                case .deck(let theme): return try await DeckCommand.open(context, theme: theme)
                case .accounts(let json, let provider): return try await AccountsCommand.list(context, json: json, provider: provider)
                case .bare where TerminalProbe.isInteractive: return try await DeckCommand.open(context, theme: nil)
                case .bare: break
                }
            }
            if BashCompletionScript.isRequested(Array(args)) { return StandardStreams().raw(BashCompletionScript.text() + "\n") }
            if let mistyped = CommandSuggestion.check(Array(args)) { throw mistyped }
            var command = try AuthDeckCommand.parseAsRoot()
            if let remote = RemoteMode(command) { return try await remote.run(command) }
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            exit(report(error, json: ErrorJSON.isRequested(Array(CommandLine.arguments.dropFirst()))))
        }
    }

    /// Prints the error the way a person should read it and returns the exit status. Every
    /// message goes through `Output`, which makes it inert: ArgumentParser's own messages echo
    /// unknown options and bad values as typed. With `json` (the command line asked for
    /// `--json`) a failure is also an `ErrorJSON` object on stdout, for every command alike.
    static func report(_ error: Error, json: Bool = false) -> Int32 {
        switch error {
        case let e as ReportedError:
            if !e.sentence.isEmpty { Output.error(e.sentence) }
            if json, e.exitStatus != ExitStatus.ok { ErrorJSON(e).print() }
            return e.exitStatus
        case is ExitCode:
            // The command has answered already (its JSON says what failed) and chose the status.
            let code = AuthDeckCommand.exitCode(for: error)
            return code.rawValue
        default:
            let code = AuthDeckCommand.exitCode(for: error)
            let message = AuthDeckCommand.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                return ExitStatus.ok
            }
            if code == .validationFailure {
                Output.stderr(message + "\n")
                if json {
                    // The sentence alone, without the usage lines and their "Error: " lead.
                    let said = AuthDeckCommand.message(for: error)
                    ErrorJSON(status: ExitStatus.usage, remedy: said.hasPrefix("Error: ") ? String(said.dropFirst(7)) : said).print()
                }
                return ExitStatus.usage
            }
            if !message.isEmpty { Output.error(message) }
            let status = code.rawValue == 0 ? ExitStatus.failure : code.rawValue
            if json { ErrorJSON(status: status, remedy: message).print() }
            return status
        }
    }
}
