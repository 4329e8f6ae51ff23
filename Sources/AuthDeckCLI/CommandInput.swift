import Foundation

/// Where a command reads what it is given on standard input: git's and docker's requests, a
/// cache or a body given as `-`, a yes or no. The process's stdin (`ProcessInput`), or a
/// test's text.
///
/// Why a port: the credential helpers are driven by what their caller writes to them, so
/// without one the only way to test a helper's answer to a request was to run the binary.
protocol CommandInput: Sendable {
    /// Everything up to the end of the input.
    func readToEnd() -> Data
    /// The next line without its line break; nil at the end of the input.
    func readLine() -> String?
}

/// The process's own standard input.
struct ProcessInput: CommandInput {
    func readToEnd() -> Data { FileHandle.standardInput.readDataToEndOfFile() }
    func readLine() -> String? { Swift.readLine() }
}
