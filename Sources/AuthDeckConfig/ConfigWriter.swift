import Foundation
#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore
import AuthDeckPlatform

/// Adds providers to config.toml without ever leaving it half-written or invalid.
public enum ConfigWriter {
    /// Appends `profile` as a `[[provider]]` table. The result is parsed with the real
    /// loader before anything is written, then written atomically (temporary file in the same
    /// directory, fsync, rename) keeping the file's mode but never more than 0600 (0600 for a
    /// new file). A symlinked config.toml (dotfile managers link it) stays a link: the real
    /// file is replaced, beside itself. A file or directory others could write is refused
    /// untouched, as the loader refuses it (`TrustedPath`).
    public static func append(_ profile: ProviderProfile, to link: String, home: String? = nil) throws {
        let fm = FileManager.default
        if let problem = TrustedPath.problem(link, home: home) { throw ConfigError(path: link, location: nil, problem: problem) }
        let path = try realFile(link)
        let exists = fm.fileExists(atPath: path)
        let old = exists ? try String(contentsOfFile: path, encoding: .utf8) : ""
        if exists {
            let current = try ConfigLoader.parse(old, path: path)
            if current.provider(profile.id) != nil {
                throw ConfigError(path: path, location: "provider \"\(profile.id)\"", problem: "already exists; choose another --name")
            }
        }
        let text = old + (old.isEmpty || old.hasSuffix("\n\n") ? "" : (old.hasSuffix("\n") ? "\n" : "\n\n")) + render(profile)
        _ = try ConfigLoader.parse(text, path: path)
        var st = stat()
        try replace(path, with: text, mode: exists && stat(path, &st) == 0 ? st.st_mode & 0o600 : 0o600, home: home)
    }

    /// Writes `text` as the config file at `path` (mode 0600, a new file or replacing one),
    /// atomically; the directory is made 0700 when missing and refused when others could
    /// write it.
    public static func write(_ text: String, to path: String, home: String? = nil) throws {
        if let problem = TrustedPath.problem(path, home: home) { throw ConfigError(path: path, location: nil, problem: problem) }
        try replace(path, with: text, mode: 0o600, home: home)
    }

    /// Writes `text` to a temporary file beside `path` with `mode` (fsync), then renames it over `path`.
    static func replace(_ path: String, with text: String, mode: mode_t, home: String?) throws {
        let dir = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: dir.isEmpty ? "." : dir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        if let problem = TrustedPath.problem(directory: dir.isEmpty ? "." : dir, home: home) {
            throw ConfigError(path: path, location: nil, problem: problem)
        }
        let temp = (dir.isEmpty ? "." : dir) + "/.config.toml.\(getpid()).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ConfigError(path: temp, location: nil, problem: "cannot create: \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, setExactMode(temp, mode), rename(temp, path) == 0 else {
            unlink(temp)
            throw ConfigError(path: path, location: nil, problem: "cannot write: \(String(cString: strerror(errno)))")
        }
    }

    /// The file to rewrite for `path`: itself, or the file a symbolic link at it leads to.
    static func realFile(_ path: String) throws -> String {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let real = realpath(path, nil) else {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw ConfigError(path: path, location: nil, problem: "is a symbolic link to \(target), which does not exist; create that file or remove the link")
        }
        defer { free(real) }
        return String(cString: real)
    }

    /// The umask may have taken bits from the mode given to open(2): set it exactly.
    static func setExactMode(_ path: String, _ mode: mode_t) -> Bool { chmod(path, mode) == 0 }

    /// A `[[provider]]` table for `profile`.
    public static func render(_ p: ProviderProfile) -> String {
        func q(_ s: String) -> String {
            var out = "\""
            for ch in s.unicodeScalars {
                switch ch {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                default:
                    if ch.value < 0x20 || ch.value == 0x7F { out += String(format: "\\u%04X", ch.value) } else { out.unicodeScalars.append(ch) }
                }
            }
            return out + "\""
        }
        func table(_ d: [String: String]) -> String {
            "{ " + d.sorted { $0.key < $1.key }.map { "\($0.key) = \(q($0.value))" }.joined(separator: ", ") + " }"
        }
        var lines = ["[[provider]]", "id = \(q(p.id))", "kind = \(q(p.kind.rawValue))"]
        if let c = p.clientId {
            lines.append("client_id = \(q(c))")
        } else if p.options["server_type"] != "mobile-social" || p.options["preset"] != nil {
            // The OAuth server type needs a client id (the Mobile and Social REST type does not).
            // Left for the person to fill in, where they will look: `authdeck providers` names it too.
            lines.append("# client_id = \"…\"  # required before the first sign-in: the OAuth client id registered at the server")
        }
        if !p.scopes.isEmpty { lines.append("scopes = [" + p.scopes.map(q).joined(separator: ", ") + "]") }
        if let f = p.flow { lines.append("flow = \(q(f.rawValue))") }
        if !p.endpoints.isEmpty { lines.append("endpoints = \(table(p.endpoints))") }
        if !p.options.isEmpty { lines.append("options = \(table(p.options))") }
        return lines.joined(separator: "\n") + "\n"
    }
}
