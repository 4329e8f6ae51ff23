#if canImport(Glibc)
import Glibc
#endif

/// The identity of the config file as `stat(2)` sees it: device, inode, size, mtime and ctime
/// (as git trusts its index).
///
/// Why: the front answers from records `authdeck-full` derived from config.toml
/// (`FrontRecord`, `StatusFastPath`) only while the file still has the identity taken just
/// before it was read, so any edit — or a different `AUTHDECK_CONFIG` — sends the next call
/// through the full binary, which reads the file again.
public enum ConfigFileIdentity {
    /// The identity of the file at `path` now, or "absent" when there is no file; nil when it
    /// cannot be told (then no fast answer is given).
    public static func of(path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            return errno == ENOENT ? "absent \(path)" : nil
        }
        return "\(path) dev=\(st.st_dev) ino=\(st.st_ino) size=\(st.st_size) "
            + "mtime=\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) ctime=\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec)"
    }
}
