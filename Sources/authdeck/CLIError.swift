import AuthDeckCore
import AuthDeckConfig
import AuthDeckApp

/// A command failure with its message and exit status, printed as `authdeck: message`.
struct CLIError: Error {
    var message: String
    var status: Int32

    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.usage) }
    static func failure(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.failure) }
    static func needsSignIn(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.needsSignIn) }
    /// The deck ended by a signal, its work finished: status 128 + the signal, nothing printed.
    static func endedBy(signal: Int32) -> CLIError { CLIError(message: "", status: 128 + signal) }

    /// A provider id that is not in the config, with the ids that are (exit 2).
    static func unknownProvider(_ id: String, in config: DeckConfig) -> CLIError {
        .usage(ProviderWiring.unknownProvider(id, in: config))
    }

    /// A provider failure, with the exit status its class calls for.
    static func from(_ failure: AuthFailure, account: String? = nil) -> CLIError {
        // Not twice: many remedies already begin with the account ("x: x holds no refresh token").
        let prefix = account.map { failure.description.contains($0) ? "" : "\($0): " } ?? ""
        return CLIError(message: prefix + failure.description, status: failure.errorClass.exitCode)
    }
}
