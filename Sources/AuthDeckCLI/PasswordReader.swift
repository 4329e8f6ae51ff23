import Foundation
import AuthDeckCore
#if canImport(Glibc)
import Glibc
#endif

/// Gets a password from a file, `AUTHDECK_PASSWORD`, or a prompt without echo — never argv.
enum PasswordReader {
    static func read(file: String?, environment: [String: String], prompt: String) throws -> Secret {
        if let file {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw CLIError.failure("\(file): cannot read the password file")
            }
            return Secret(text.trimmingCharacters(in: .newlines))
        }
        if let value = environment["AUTHDECK_PASSWORD"], !value.isEmpty { return Secret(value) }
        guard isatty(0) == 1 else {
            throw CLIError.usage("no password: use --password-file, AUTHDECK_PASSWORD, or run in a terminal to be asked")
        }
        return Secret(SilentPrompt.read(prompt, input: 0, output: 2))
    }
}
