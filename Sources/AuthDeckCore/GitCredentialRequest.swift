/// One request as git writes it to a credential helper: `key=value` lines up to a blank line
/// or the end.
///
/// Why in Core: `authdeck-full git-credential` and the front's fast path must read the very
/// same URL out of the very same bytes, or the two could route one request differently.
public struct GitCredentialRequest: Equatable, Sendable {
    /// How much of the input is read: git's requests are a few hundred bytes.
    public static let limit = 64 << 10

    public var fields: [String: String] = [:]

    public init(fields: [String: String] = [:]) { self.fields = fields }

    /// The request in the first `limit` bytes of `input` (invalid UTF-8 read as U+FFFD).
    public static func read(from input: some Collection<UInt8>) -> GitCredentialRequest {
        var request = GitCredentialRequest()
        for line in String(decoding: input.prefix(limit), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            guard let eq = line.firstIndex(of: "=") else { continue }
            request.fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return request
    }

    /// `protocol://host[/path]`, or nil without protocol and host (or from `url=`).
    public var url: String? {
        if let url = fields["url"] { return url }
        guard let scheme = fields["protocol"], let host = fields["host"], !host.isEmpty else { return nil }
        return "\(scheme)://\(host)" + (fields["path"].map { $0.isEmpty ? "" : "/" + $0 } ?? "")
    }

    /// git's answer for a token: `username=`, `password=` and `password_expiry_utc=` lines, or
    /// nil when the username or token holds a line break or NUL — git reads `key=value` lines,
    /// and such a value would add attributes of its own (`url=`, `password=`) to the answer.
    public static func answer(username: String, token: String, expiresAt: Instant?) -> String? {
        guard !(username + token).contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else { return nil }
        var answer = "username=\(username)\npassword=\(token)\n"
        if let expiresAt { answer += "password_expiry_utc=\(expiresAt.secondsSinceEpoch)\n" }
        return answer
    }
}
