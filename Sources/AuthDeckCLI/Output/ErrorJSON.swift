import AuthDeckCore

/// A failed command's answer under `--json`: one object on stdout with `error_class`, `code`,
/// `remedy` and `exit_status`, whichever command failed.
///
/// Why stdout: `refresh --all --json` reports each account's failure there, and a script that
/// parses one command's JSON must find another's failure in the same place. The sentence still
/// goes to stderr for a person. Why here and not per command: a command cannot catch a usage
/// error ArgumentParser throws before it runs, nor an error its use case throws after a
/// partial answer; `AuthDeckMain.report` sees every failure once.
struct ErrorJSON: Encodable, Equatable {
    /// One of `ErrorClass`'s JSON names, or `usage` (the command line is wrong) or `failure`
    /// (anything else that is not a provider's answer: a file, the store, the config).
    var error_class: String
    /// A provider's code (`invalid_grant`, `AADSTS50076`, `http 503`) when a provider answered,
    /// else the class again: something a script can switch on without reading the sentence.
    var code: String
    /// What went wrong and what to do, as stderr says it.
    var remedy: String
    var exit_status: Int32

    /// Whether `arguments` (without the program name) ask for JSON: a `--json` before `--`
    /// (what follows `--` is `exec`'s command and its own options).
    static func isRequested(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }

    /// The object for a use case's error, its class taken from what the error knows.
    init(_ error: any ReportedError) {
        let status = error.exitStatus
        if let failure = error as? AuthFailure {
            self.init(error_class: failure.errorClass.jsonName, code: failure.code, remedy: failure.remedy, exit_status: status)
        } else {
            self.init(status: status, remedy: error.sentence)
        }
    }

    /// The object for an error that names no class: the exit status stands for it.
    init(status: Int32, remedy: String) {
        self.init(error_class: Self.className(status), code: Self.className(status), remedy: remedy, exit_status: status)
    }

    init(error_class: String, code: String, remedy: String, exit_status: Int32) {
        (self.error_class, self.code, self.remedy, self.exit_status) = (error_class, code, remedy, exit_status)
    }

    /// The class an exit status stands for when the error names none (authdeck(1), EXIT STATUS).
    static func className(_ status: Int32) -> String {
        switch status {
        case ExitStatus.usage: "usage"
        case ExitStatus.needsSignIn: ErrorClass.needsInteraction.jsonName
        case ExitStatus.transient: ErrorClass.transient.jsonName
        default: "failure"
        }
    }

    /// Prints the object on stdout; a failure to write ends the command as `Output` does.
    func print() {
        try? Output.json(self)
    }
}
