import Foundation
import AuthDeckCore
#if canImport(Glibc)
import Glibc
#endif

/// The cookie jar `authdeck exec` hands its command: a 0600 file in a fresh 0700 directory,
/// removed when the command ends.
///
/// Why the directory name carries the pid: if authdeck itself is killed with SIGKILL it cannot
/// clean up, so every `exec` first removes the jars of authdeck processes that no longer run.
/// The directory lives in `RuntimeDirectory` (a per-user tmpfs when there is one), so the jar
/// never reaches a disk there.
struct TemporaryJar {
    let directory: String
    let path: String

    static let prefix = "authdeck-exec."

    /// Writes `cookies` into a new jar.
    static func create(_ cookies: [Cookie], environment: [String: String]) throws -> TemporaryJar {
        let base = RuntimeDirectory.path(environment)
        sweep(base)
        var template = Array("\(base)/\(prefix)\(getpid()).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CLIError.failure("cannot create a private directory in \(base): \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        let path = directory + "/cookies.txt"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError.failure("cannot create \(path): \(String(cString: strerror(errno)))") }
        let text: String
        do { text = try NetscapeCookieJar.render(cookies) } catch { throw CLIError.failure("\(error)") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let jar = TemporaryJar(directory: directory, path: path)
        guard written == bytes.count else {
            jar.remove()
            throw CLIError.failure("cannot write \(path)")
        }
        return jar
    }

    func remove() {
        unlink(path)
        rmdir(directory)
    }

    /// Removes jars left by authdeck processes that are gone (killed before they could).
    static func sweep(_ base: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: ".")
            guard parts.count == 2, let pid = pid_t(parts[0]), pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            var info = stat()
            guard lstat("\(base)/\(name)", &info) == 0, info.st_uid == getuid() else { continue }
            unlink("\(base)/\(name)/cookies.txt")
            rmdir("\(base)/\(name)")
        }
    }
}
