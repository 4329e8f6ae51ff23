import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Creates and checks files and directories with owner-only permissions.
///
/// Files are created with their final mode in the `open(2)` call itself, so there is no
/// window in which a secret-bearing file is readable by others.
enum FileSafety {
    /// Creates the directory (and parents) with mode 0700 when missing; returns a warning
    /// when an existing directory is readable by others.
    static func ensurePrivateDirectory(_ path: String) throws -> String? {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                throw StoreError.io(path: path, detail: "exists but is not a directory")
            }
            return (st.st_mode & 0o077) != 0
                ? "\(path): directory mode is \(octal(st.st_mode & 0o777)); authdeck expects 0700 (chmod 700 \(path))"
                : nil
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

    /// Creates an empty file with mode 0600; fails if it already exists.
    /// - Parameter allowExisting: a file another process has just created is fine (it was
    ///   created empty and private by the same code).
    static func createPrivateFile(_ path: String, contents: [UInt8] = [], allowExisting: Bool = false) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0, errno == EEXIST, allowExisting { return }
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
    }

    /// A warning when an existing file is readable or writable by group or others.
    static func looseModeWarning(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & 0o077) != 0 else { return nil }
        return "\(path): file mode is \(octal(st.st_mode & 0o777)); authdeck expects 0600 (chmod 600 \(path))"
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
