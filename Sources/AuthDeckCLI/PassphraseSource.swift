import Foundation
import AuthDeckStore
#if canImport(Glibc)
import Glibc
#endif

/// Where a passphrase-sealed store gets its passphrase: `AUTHDECK_PASSPHRASE_FILE`, else a
/// prompt on the controlling terminal — never argv or an environment variable's value.
///
/// Why the terminal and not stdin: `authdeck token` runs inside `$(…)` and pipes, where
/// stdin and stdout are not the person; /dev/tty still is, as with ssh and gpg.
struct PassphraseSource: Sendable {
    let environment: [String: String]
    /// A new passphrase's file (`key migrate --passphrase-file`), read before the variable.
    var newPassphraseFile: String?

    func passphrase(_ purpose: PassphrasePurpose) throws -> String {
        switch purpose {
        case .unlock(let path):
            if let file = environment["AUTHDECK_PASSPHRASE_FILE"], !file.isEmpty { return try Self.readFile(file) }
            return try prompt("Passphrase for \(path): ", purpose)
        case .choose(let path):
            if let file = newPassphraseFile ?? environment["AUTHDECK_PASSPHRASE_FILE"].flatMap({ $0.isEmpty ? nil : $0 }) {
                return try Self.readFile(file)
            }
            let first = try prompt("New passphrase for \(path): ", purpose)
            guard try prompt("Repeat it: ", purpose) == first else {
                throw StoreError.keySource(source: "passphrase", detail: "the two passphrases differ; nothing changed")
            }
            return first
        }
    }

    /// The first line of `file` (later lines are free, as in `pass` entries); errors name the
    /// file. Not `SecretSource.file`, which takes the whole file and reports provider errors.
    /// The file must be as private as the key file (0600, the user's own, a regular file).
    static func readFile(_ file: String) throws -> String {
        try PassphraseRules.requirePrivateFile(file)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw StoreError.keySource(source: "passphrase",
                detail: "\(file) (AUTHDECK_PASSPHRASE_FILE): " + (FileManager.default.fileExists(atPath: file) ? "not readable" : "no such file"))
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !line.isEmpty else {
            throw StoreError.keySource(source: "passphrase", detail: "\(file) (AUTHDECK_PASSPHRASE_FILE): the file is empty")
        }
        return line
    }

    /// Asks on /dev/tty with echo off; without a terminal, says how to give the passphrase.
    /// Only when stdin or stderr is a terminal: a command run by a service or a test with
    /// pipes on both must fail at once instead of waiting on a terminal nobody watches.
    private func prompt(_ text: String, _ purpose: PassphrasePurpose) throws -> String {
        guard isatty(0) == 1 || isatty(2) == 1 else { return try KeySources.noPassphrase(purpose) }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return try KeySources.noPassphrase(purpose) }
        defer { close(fd) }
        return SilentPrompt.read(text, input: fd, output: fd)
    }
}
