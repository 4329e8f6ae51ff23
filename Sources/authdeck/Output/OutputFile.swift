import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where `authdeck request` writes a response body: stdout, or a file created mode 0600 (a
/// response fetched with a credential is often private) that is removed again when the
/// request fails, so a failed download never looks like a finished one.
final class OutputFile: @unchecked Sendable {
    let path: String?
    let fd: Int32

    init(path: String?) throws {
        self.path = path
        guard let path else {
            fd = STDOUT_FILENO
            return
        }
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw CLIError.failure("-o \(path): \(String(cString: strerror(errno)))") }
        fd = opened
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

    func finish() throws {
        guard let path else { return }
        if fsync(fd) != 0 || close(fd) != 0 { throw CLIError.failure("-o \(path): \(String(cString: strerror(errno)))") }
    }

    func abandon() {
        guard let path else { return }
        close(fd)
        unlink(path)
    }
}
