#if canImport(Glibc)
import Glibc
#endif

/// What lets the `authdeck` front answer `authdeck token ACCOUNT` without reading config.toml:
/// the clock-skew margin the config file set when `authdeck-full` last read it, and that
/// file's identity as `stat(2)` saw it just before.
///
/// Why: parsing TOML (toml++ inside TOMLKit, libstdc++) costs more than the whole cached-token
/// answer. `authdeck-full token` stores this record in the store's meta table whenever it
/// changes; the front serves a token only while the config file still has the same device,
/// inode, size, mtime and ctime (as git trusts its index), so any edit — or a different
/// `AUTHDECK_CONFIG` — sends the next call through the full binary, which reads the file again.
public struct TokenFastPath: Equatable, Sendable {
    /// The meta-table key of the record; a new format takes a new key.
    public static let metaKey = "fast_token.v1"
    /// The meta-table key of the record's seal (`SealingContext.fastPath`, under the data key):
    /// its margin decides until when the front serves a token, so a record written without the
    /// key (a margin of 0 s) is not believed.
    public static let sealKey = "fast_token.v1.seal"

    public var configIdentity: String
    public var clockSkewSeconds: Int64

    public init(configIdentity: String, clockSkewSeconds: Int64) {
        self.configIdentity = configIdentity
        self.clockSkewSeconds = clockSkewSeconds
    }

    /// The identity of the config file at `path` now: its stat fields, or "absent" when there
    /// is no file; nil when it cannot be told (then no fast answer is given).
    public static func configIdentity(path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            return errno == ENOENT ? "absent \(path)" : nil
        }
        return "\(path) dev=\(st.st_dev) ino=\(st.st_ino) size=\(st.st_size) "
            + "mtime=\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) ctime=\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec)"
    }

    /// The stored form: the skew in seconds, a newline, the identity.
    public var encoded: String { "\(clockSkewSeconds)\n\(configIdentity)" }

    public init?(encoded: String) {
        guard let newline = encoded.firstIndex(of: "\n"),
              let skew = Int64(encoded[..<newline]), skew >= 0 else { return nil }
        self.init(configIdentity: String(encoded[encoded.index(after: newline)...]), clockSkewSeconds: skew)
    }
}
