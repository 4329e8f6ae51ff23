import AuthDeckCore
import AuthDeckConfig
import AuthDeckApp

/// A command failure with its message and exit status, printed as `authdeck: message`: the
/// binary's own `ReportedError`, for what only a command can tell (an option, a file).
struct CLIError: ReportedError {
    var message: String
    var status: Int32
    var sentence: String { message }
    var exitStatus: Int32 { status }

    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.usage) }
    static func failure(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.failure) }
    static func needsSignIn(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.needsSignIn) }
    /// The deck ended by a signal, its work finished: status 128 + the signal, nothing printed.
    static func endedBy(signal: Int32) -> CLIError { CLIError(message: "", status: 128 + signal) }

    /// A provider id that is not in the config, with the ids that are (exit 2).
    static func unknownProvider(_ id: String, in config: DeckConfig) -> CLIError {
        .usage(ProviderWiring.unknownProvider(id, in: config))
    }
}
