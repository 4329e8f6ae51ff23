import Foundation
import AuthDeckCore
#if canImport(Glibc)
import Glibc
#endif

/// Reading and rewriting an MSAL cache file the way MSAL's own extensions do: under an
/// exclusive lock on `FILE.lockfile` for the whole read-modify-write, with a timestamped
/// backup, written atomically (temporary file in the same directory, fsync, rename) with
/// the original mode. Refuses symlinks, oversized files and anything that is not a cache,
/// leaving them untouched.
public struct MSALCacheFile: Sendable {
    public let path: String
    public static let maxBytes = 16 << 20

    public struct FileError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(path: String) { self.path = path }

    func fail(_ problem: String) -> FileError { FileError(description: "\(path): \(problem)") }

    /// Reads and parses the file (no lock: for inspection).
    public func read() throws -> MSALCache {
        var st = stat()
        guard lstat(path, &st) == 0 else { throw fail("cannot read: \(String(cString: strerror(errno)))") }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw fail("is a symbolic link (to \(target)); authdeck does not follow it — name the real file")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw fail("is not a regular file") }
        guard st.st_size <= Self.maxBytes else {
            throw fail("is \(st.st_size / (1 << 20)) MiB; an MSAL token cache is far smaller — refusing to read it")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot read the file") }
        do { return try MSALCache(bytes: Array(data)) } catch let e as MSALCache.FormatError { throw fail(e.description) }
    }

    /// Holds `FILE.lockfile` exclusively while `body` runs, retrying until `timeout`.
    ///
    /// The lock file is opened without following a link and must be a regular file; it is only
    /// locked, never written or truncated (a link planted there once made authdeck empty its
    /// target and write a PID into it).
    public func withLock<T>(timeout: Double, _ body: () throws -> T) throws -> T {
        let lockPath = path + ".lockfile"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "is a symbolic link; authdeck does not follow it — remove it (MSAL makes a new one)"
                : "cannot open the lock file: \(String(cString: strerror(errno)))"
            throw FileError(description: "\(lockPath): \(reason); nothing was changed")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw FileError(description: "\(lockPath): is not a regular file; authdeck locks only a regular lock file — nothing was changed")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK, Date() < deadline else {
                throw FileError(description: "\(lockPath): another process (Azure CLI or another MSAL app?) has held the cache lock for more than \(Int(timeout)) s; nothing was changed — try again when it is done")
            }
            usleep(100_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Locks, reads, lets `change` edit the cache, and when it changed anything writes a
    /// backup and the new cache atomically. Returns `change`'s result and the backup path.
    public func update<T>(lockTimeout: Double, now: Instant, dryRun: Bool,
                          _ change: (inout MSALCache) throws -> (T, changed: Bool)) throws -> (T, backup: String?) {
        try withLock(timeout: lockTimeout) {
            var cache = try read()
            let (result, changed) = try change(&cache)
            guard changed, !dryRun else { return (result, nil) }
            var st = stat()
            _ = stat(path, &st)
            let mode = st.st_mode & 0o777
            let stamp = now.iso8601.replacingOccurrences(of: ":", with: "")
            let backup = "\(path).\(stamp).bak"
            try writeAtomically(Array(FileManager.default.contents(atPath: path) ?? Data()), to: backup, mode: mode)
            try writeAtomically(cache.serialized(), to: path, mode: mode)
            return (result, backup)
        }
    }

    func writeAtomically(_ bytes: [UInt8], to target: String, mode: mode_t) throws {
        let dir = (target as NSString).deletingLastPathComponent
        let temp = (dir.isEmpty ? "." : dir) + "/.\((target as NSString).lastPathComponent).\(getpid()).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileError(description: "\(temp): cannot create: \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        _ = fchmod(fd, mode)
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temp, target) == 0 else {
            unlink(temp)
            throw FileError(description: "\(target): cannot write: \(String(cString: strerror(errno)))")
        }
    }
}
