import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckApp

/// `authdeck git-credential get|store|erase`: git's credential-helper protocol over the
/// `[[credential]]` entries of config.toml.
///
/// `get` answers with the routed account's token as the password (renewed silently when
/// needed, single-flight as `token`), the username, and `password_expiry_utc`. A URL no entry
/// covers gets nothing (exit 0), so git asks its next helper; when only a sign-in would help,
/// nothing on stdout and the remedy on stderr. `store` and `erase` change nothing: the store's
/// tokens are authdeck's, and a token git saw rejected is not a reason to delete one.
struct GitCredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-credential", abstract: "git's credential helper: the token of the account [[credential]] routes a URL to.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "get, store or erase (git passes it).") var operation: String

    func run() async throws {
        let request = GitCredentialRequest.read(from: FileHandle.standardInput.readDataToEndOfFile())
        guard operation == "get" else {
            guard ["store", "erase"].contains(operation) else { throw CLIError.usage("git-credential takes get, store or erase (found \"\(TerminalText.inert(operation))\")") }
            return
        }
        guard let url = request.url else { return }
        let context = DeckContext(global)
        let config = try context.loadConfig()
        guard let route = CredentialRoute.route(for: url, in: config.credentials) else { return }
        do {
            let (token, username) = try await RoutedToken(context: context, config: config).token(for: route)
            // git reads `key=value` lines: a username (a provider's claim, or config) holding a
            // line break or NUL would add attributes of its own (`url=`, `password=`) to the answer.
            guard !(username + token.value.exposedValue).contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else {
                return Output.error("git-credential for \(TerminalText.inert(url)): the username or token holds a line break; nothing was given to git")
            }
            var answer = "username=\(username)\npassword=\(token.value.exposedValue)\n"
            if let expiry = token.expiresAt { answer += "password_expiry_utc=\(expiry.secondsSinceEpoch)\n" }
            Output.raw(answer)
        } catch let error as ReportedError where error is CLIError || error is AuthFailure || error is TokenAccess.NeedsSignIn {
            // Nothing for git to use: it goes on to its next helper or its own prompt. (A store
            // that cannot be read is authdeck's own failure: reported as such, exit 1.)
            Output.error("git-credential for \(TerminalText.inert(url)): \(error.sentence)")
        }
    }
}

/// One request as git writes it: `key=value` lines up to a blank line or the end.
struct GitCredentialRequest {
    var fields: [String: String] = [:]

    static func read(from data: Data) -> GitCredentialRequest {
        var request = GitCredentialRequest()
        for line in String(decoding: data.prefix(64 << 10), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            guard let eq = line.firstIndex(of: "=") else { continue }
            request.fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return request
    }

    /// `protocol://host[/path]`, or nil without protocol and host (or from `url=`).
    var url: String? {
        if let url = fields["url"] { return url }
        guard let scheme = fields["protocol"], let host = fields["host"], !host.isEmpty else { return nil }
        return "\(scheme)://\(host)" + (fields["path"].map { $0.isEmpty ? "" : "/" + $0 } ?? "")
    }
}
