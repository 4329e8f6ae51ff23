import Foundation
import AuthDeckPlatform
#if canImport(Glibc)
import Glibc
#endif

/// Where `authdeck request` writes a response body: stdout, a device or FIFO written straight
/// through, or a regular file replaced only when the request succeeds.
///
/// A file is downloaded into a new private file beside it (beside a symlink's target) and
/// renamed over it on success, so a failed request or an error answer leaves the old content
/// in place; on failure only that new file is removed. A non-regular file is never truncated
/// or removed. A signal that ends the process (Ctrl-C, SIGTERM, SIGHUP) removes the new file
/// too (`SignalShield.removeOnSignal`); one left by SIGKILL or a crash is swept by a later
/// download beside the same file once it is an hour old (`OutputFile+Sweep`).
// @unchecked: a C boundary — an fd written by the transfer's thread, then closed by the caller after it ends.
final class OutputFile: @unchecked Sendable {
    let path: String?
    let fd: Int32
    /// The file the body goes to before it is renamed over `destination`; nil when written straight through.
    let staged: String?
    /// The regular file to replace (a symlink's target, so the link stays a link).
    let destination: String?
    /// Whether something was at `path` before: what a failure may say of it.
    let existed: Bool

    /// What a failed download did to `path`, worded for what was there: an old file kept, or
    /// nothing written where nothing was (never "was left as it was" of a file never made).
    var untouched: String {
        guard let path else { return "" }
        return existed ? "\(path) was left as it was" : "nothing was written to \(path)"
    }

    init(path: String?) throws {
        self.path = path
        var before = stat()
        existed = path.map { lstat($0, &before) == 0 } ?? false
        guard let path else {
            fd = STDOUT_FILENO
            staged = nil
            destination = nil
            return
        }
        func failure(_ what: String) -> CLIError { CLIError.failure("-o \(path): \(what)") }
        var info = stat()
        var target = path
        var mode: mode_t = 0o600
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK {
                guard let real = realpath(path, nil) else {
                    throw failure("a symbolic link to something that does not exist (\(String(cString: strerror(errno)))); name a file or a new path")
                }
                target = String(cString: real)
                free(real)
                guard stat(target, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                mode = info.st_mode & 0o7777
            case S_IFDIR:
                throw failure("a directory; name a file")
            default:
                // /dev/null, a terminal, a FIFO: written to as they are, never truncated or removed.
                let opened = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
                guard opened >= 0 else { throw failure(String(cString: strerror(errno))) }
                fd = opened
                staged = nil
                destination = nil
                return
            }
        } else if errno != ENOENT {
            throw failure(String(cString: strerror(errno)))
        }
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        Self.sweep(directory: directory.isEmpty ? "/" : directory, name: name)
        let stagedPath = "\(directory.isEmpty ? "" : directory)/.\(name)\(Self.stagedMarker)\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        // Named before it exists: a signal between the two removes nothing that is not ours.
        SignalShield.removeOnSignal(stagedPath)
        let opened = open(stagedPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard opened >= 0 else {
            let reason = String(cString: strerror(errno))
            SignalShield.removeOnSignal(nil)
            throw failure("cannot create a file beside it (\(reason))")
        }
        guard fchmod(opened, mode) == 0 else {
            let reason = String(cString: strerror(errno))
            close(opened)
            unlink(stagedPath)
            SignalShield.removeOnSignal(nil)
            throw failure(reason)
        }
        fd = opened
        staged = stagedPath
        destination = target
    }

    /// Writes all of `chunk`; false when the output is gone (a closed pipe, a full disk).
    var write: @Sendable (UnsafeRawBufferPointer) -> Bool {
        let fd = self.fd
        return { chunk in
            var offset = 0
            while offset < chunk.count {
                let n = Glibc.write(fd, chunk.baseAddress! + offset, chunk.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }

    /// Puts the finished body in place: the new file is flushed and renamed over the old one.
    func finish() throws {
        guard let path else { return }
        guard let staged, let destination else {
            close(fd)
            return
        }
        defer { SignalShield.removeOnSignal(nil) }
        if fsync(fd) != 0 || close(fd) != 0 || rename(staged, destination) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(staged)
            throw CLIError.failure("-o \(path): \(reason); \(untouched)")
        }
    }

    /// Drops what was downloaded; the file at the path is left as it was.
    func abandon() {
        guard path != nil else { return }
        close(fd)
        if let staged {
            unlink(staged)
            SignalShield.removeOnSignal(nil)
        }
    }
}
