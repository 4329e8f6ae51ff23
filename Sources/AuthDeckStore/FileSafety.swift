import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Creates and checks files and directories with owner-only permissions.
///
/// Files are created with their final mode in the `open(2)` call itself, so there is no
/// window in which a secret-bearing file is readable by others.
enum FileSafety {
    /// Creates the directory (and parents) with mode 0700 when missing. An existing one is
    /// judged by who could replace the files in it: authdeck's own directory (yours, not a
    /// shared sticky one like /tmp) writable by others is refused with the chmod that fixes
    /// it, readable by others is a warning; a directory that is not yours gets no chmod advice,
    /// only what its risk is.
    static func ensurePrivateDirectory(_ path: String) throws -> String? {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                throw StoreError.io(path: path, detail: "exists but is not a directory")
            }
            let mode = st.st_mode & 0o777
            if st.st_mode & S_ISVTX != 0, mode & 0o002 != 0 {
                return "\(path) is a shared directory (mode \(octal(st.st_mode & 0o7777))): other users cannot replace your files in it, "
                    + "but they see their names and can create files beside them (the store's -wal and -shm); "
                    + "keep the store in a directory of your own, such as the default ~/.local/share/authdeck"
            }
            if st.st_uid == geteuid() {
                if mode & 0o022 != 0 {
                    throw StoreError.io(path: path, detail: "directory mode is \(octal(mode)): other users could replace the store or key file in it, "
                                        + "so authdeck will not use it; fix it with: chmod 700 \(path)")
                }
                return mode & 0o077 != 0
                    ? "\(path): directory mode is \(octal(mode)): other users can list it; authdeck expects 0700 (chmod 700 \(path))"
                    : nil
            }
            if mode & 0o022 != 0 {
                throw StoreError.io(path: path, detail: "this directory is not yours and other users can write to it (mode \(octal(mode))): "
                                    + "they could replace the store in it; keep the store in a directory of your own")
            }
            return st.st_uid == 0 ? nil
                : "\(path) belongs to another user (uid \(st.st_uid)), who could replace the store in it; keep the store in a directory of your own"
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, stat(parent, &st) != 0 {
            _ = try ensurePrivateDirectory(parent)
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw StoreError.io(path: path, detail: "cannot create directory: \(String(cString: strerror(errno)))")
        }
        return nil
    }

    /// Creates an empty file with mode 0600; fails if it already exists. Returns whether this
    /// call created it.
    /// - Parameter allowExisting: a file another process has just created is fine (it was
    ///   created empty and private by the same code).
    @discardableResult
    static func createPrivateFile(_ path: String, contents: [UInt8] = [], allowExisting: Bool = false) throws -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0, errno == EEXIST, allowExisting { return false }
        guard fd >= 0 else {
            throw StoreError.io(path: path, detail: "cannot create file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var written = 0
        while written < contents.count {
            let n = contents[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else {
                unlink(path)
                throw StoreError.io(path: path, detail: "cannot write: \(String(cString: strerror(errno)))")
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            unlink(path)
            throw StoreError.io(path: path, detail: "cannot sync: \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// What is at `path`, seen with `lstat` (never opened, so a FIFO cannot hang the caller):
    /// nil when nothing is there, its status when it is a regular file; anything else — a
    /// symbolic link (dangling or not), a directory, a FIFO, a device, a socket — is refused.
    static func regularFile(_ path: String, what: String) throws -> stat? {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return nil }
            throw StoreError.io(path: path, detail: "cannot check the \(what): \(String(cString: strerror(errno)))")
        }
        let kind: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return st
        case S_IFLNK: kind = "a symbolic link"
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw StoreError.io(path: path, detail: "the \(what) is \(kind); authdeck uses only a regular file here — name the file itself or a new path")
    }

    /// Refuses a store or key file that another user could have read or replaced, as ssh
    /// refuses such a key, with the exact chmod that fixes it. Nothing at `path` is fine.
    static func requirePrivateFile(_ path: String, what: String) throws {
        guard let st = try regularFile(path, what: what) else { return }
        if st.st_uid != geteuid() {
            throw StoreError.io(path: path, detail: "the \(what) belongs to another user (uid \(st.st_uid)), who could have replaced it; "
                                + "authdeck uses only a \(what) of your own")
        }
        let mode = st.st_mode & 0o777
        if mode & 0o077 != 0 {
            throw StoreError.io(path: path, detail: "\(what) mode is \(octal(mode)): other users could read or replace it, "
                                + "so authdeck will not use it; fix it with: chmod 600 \(path)")
        }
    }

    /// Whether the file system holding `path` has no space left for an unprivileged writer
    /// (SQLite reports a failed write of its -wal or -shm file as "disk I/O error").
    static func diskFull(near path: String) -> Bool {
        var fs = statvfs()
        let dir = (path as NSString).deletingLastPathComponent
        guard statvfs(dir.isEmpty ? "." : dir, &fs) == 0 else { return false }
        return fs.f_bavail == 0
    }

    static func octal(_ mode: mode_t) -> String {
        let s = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
