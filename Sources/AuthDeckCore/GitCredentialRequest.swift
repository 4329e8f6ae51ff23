/// One request as git writes it to a credential helper: `key=value` lines up to a blank line
/// or the end.
///
/// Why in Core: `authdeck-full git-credential` and the front's fast path must read the very
/// same URL out of the very same bytes, or the two could route one request differently.
public struct GitCredentialRequest: Equatable, Sendable {
    /// How much of the input is read: git's requests are a few hundred bytes.
    public static let limit = 64 << 10

    /// The attributes as git would hold them: `url=` already taken apart into `protocol`,
    /// `host`, `path`, `username` and `password`.
    public var fields: [String: String] = [:]
    /// Whether a `url=` line could not be taken apart (git itself dies on such a request).
    public var hasUnreadableURL = false

    public init(fields: [String: String] = [:]) { self.fields = fields }

    /// The request in the first `limit` bytes of `input` (invalid UTF-8 read as U+FFFD), read
    /// by git's own rules (`credential_read` in git's credential.c): a line's trailing CR is
    /// dropped, a later attribute replaces an earlier one, and `url=` clears every attribute
    /// before it and sets those its URL names — so `url=https://a/…` then `host=b` asks for b,
    /// as git would, and `host=b` then `url=https://a/…` asks for a.
    public static func read(from input: some Collection<UInt8>) -> GitCredentialRequest {
        var request = GitCredentialRequest()
        // Split on bytes: as a Swift Character, CR LF is one, and equal to neither.
        for var bytes in Array(input.prefix(limit)).split(separator: 0x0A, omittingEmptySubsequences: false) {
            if bytes.last == 0x0D { bytes.removeLast() }
            if bytes.isEmpty { break }
            let line = String(decoding: bytes, as: UTF8.self)
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<eq]), value = line[line.index(after: eq)...]
            if key == "url" {
                guard let parts = urlAttributes(value) else {
                    request.hasUnreadableURL = true
                    continue
                }
                request.fields = parts
            } else {
                request.fields[key] = String(value)
            }
        }
        return request
    }

    /// The attributes git takes out of `url` (`credential_from_url`): the scheme as written,
    /// then the user, password, host and path percent-decoded, the path without its leading
    /// and trailing slashes; nil where git refuses the URL (no scheme, a decoded line break).
    static func urlAttributes(_ url: Substring) -> [String: String]? {
        guard let protoEnd = url.firstRange(of: "://"), protoEnd.lowerBound != url.startIndex else { return nil }
        var fields = ["protocol": String(url[..<protoEnd.lowerBound])]
        let rest = url[protoEnd.upperBound...]
        // A query or fragment marker before the first slash ends the host too.
        let slash = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        var host = rest[..<slash]
        if let at = rest.firstIndex(of: "@"), at < slash {
            let userinfo = rest[..<at]
            if let colon = userinfo.firstIndex(of: ":") {
                fields["username"] = PercentEncoding.decoded(userinfo[..<colon])
                fields["password"] = PercentEncoding.decoded(userinfo[userinfo.index(after: colon)...])
            } else {
                fields["username"] = PercentEncoding.decoded(userinfo)
            }
            host = rest[rest.index(after: at)..<slash]
        }
        fields["host"] = PercentEncoding.decoded(host)
        let path = rest[slash...].drop { $0 == "/" }
        if !path.isEmpty {
            var decoded = PercentEncoding.decoded(path)
            while decoded.count > 1, decoded.hasSuffix("/") { decoded.removeLast() }
            fields["path"] = decoded
        }
        guard !fields.values.contains(where: { $0.utf8.contains(0x0A) }) else { return nil }
        return fields
    }

    /// `protocol://host[/path]`, or nil without protocol and host, after a `url=` git could not
    /// read, or when the host holds what no host holds (`/`, `\`, `?`, `#`, `@`, a space or a
    /// control character): a decoded `url=https://h%2Fcontoso/x` or `host=h/contoso` would
    /// otherwise read as a path under a route it has nothing to do with.
    public var url: String? {
        guard !hasUnreadableURL, let scheme = fields["protocol"], !scheme.isEmpty, let host = fields["host"], !host.isEmpty,
              !host.unicodeScalars.contains(where: { "/\\?#@".unicodeScalars.contains($0) || $0.value <= 0x20 || $0.value == 0x7F }) else { return nil }
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
