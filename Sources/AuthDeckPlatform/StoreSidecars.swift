#if canImport(Glibc)
import Glibc
#endif

/// The files SQLite keeps beside a store, claimed before SQLite opens them.
///
/// Why: SQLite creates `-wal` and `-shm` with `O_CREAT` but not `O_EXCL`, and removes them when
/// the last connection closes, so in a directory others can write to (a shared sticky one such
/// as /tmp) another user could plant one between any check and SQLite's open and then read the
/// store's pages or write frames into it. Creating each ourselves with `O_EXCL` (mode 0600)
/// closes that window: a file that is already there must be the user's own, private, regular
/// file — and in a sticky directory nobody else can replace it after that.
public enum StoreSidecars {
    /// The write-ahead log and its index: created when absent.
    public static let claimed = ["-wal", "-shm"]
    /// The rollback journal: never created (a WAL store does not use it), only checked.
    public static let checked = ["-journal"]

    /// Creates the store's `-wal` and `-shm` when absent and checks every sidecar that exists;
    /// nil when all is well, else what is wrong with which file.
    public static func claim(_ databasePath: String) -> (path: String, problem: String)? {
        for suffix in claimed + checked {
            let path = databasePath + suffix
            if claimed.contains(suffix) {
                let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                if fd >= 0 { close(fd); continue }
                guard errno == EEXIST else {
                    // A directory the user cannot write to (a read-only store): SQLite says so itself.
                    if errno == EACCES || errno == EROFS { continue }
                    return (path, "cannot create it: \(String(cString: strerror(errno)))")
                }
            }
            var st = stat()
            guard lstat(path, &st) == 0 else {
                if errno == ENOENT { continue }
                return (path, "cannot check it: \(String(cString: strerror(errno)))")
            }
            if (st.st_mode & S_IFMT) != S_IFREG {
                return (path, "it is not a regular file (a link, FIFO or device); authdeck uses only a file of its own here")
            }
            if st.st_uid != geteuid() {
                return (path, "it belongs to another user (uid \(st.st_uid)), who could read or write the store through it; "
                        + "keep the store in a directory of your own")
            }
            if st.st_mode & 0o077 != 0 {
                return (path, "its mode is \(String(st.st_mode & 0o777, radix: 8)): other users could read or write the store through it; "
                        + "fix it with: chmod 600 \(path)")
            }
        }
        return nil
    }
}
