#if canImport(Glibc)
import Glibc
#endif
import AuthDeckCore

/// What the front read from its standard input, and the way to give it back before handing
/// the command over.
///
/// Why: git writes its request to a helper's stdin, and the front must read it to know the
/// URL; when the front then hands the call to `authdeck-full`, that binary must read the very
/// same bytes. They are put in an anonymous in-memory file (`memfd_create`) that becomes fd 0
/// across the `exec`, so no size of input can block or be cut (where there is none, a pipe
/// holding what authdeck-full reads of them).
struct StandardInput {
    var bytes: [UInt8]
    /// Whether fd 0 was open at all (a closed stdin is left closed).
    var wasOpen: Bool

    /// Everything on fd 0 up to its end (or a read error, after which no more can be had).
    static func readAll() -> StandardInput {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n > 0 { bytes += chunk[..<n]; continue }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EBADF, bytes.isEmpty { return StandardInput(bytes: [], wasOpen: false) }
            return StandardInput(bytes: bytes, wasOpen: true)
        }
    }

    /// Makes fd 0 hold `bytes` again, read from the start; false when that cannot be done (then
    /// the caller must not hand over as if nothing had been read).
    func replay() -> Bool {
        guard wasOpen else { return true }
        guard let fd = Self.memoryFile() ?? pipeHolding() else { return false }
        defer { close(fd) }
        if Self.isPipe(fd) { return dup2(fd, 0) == 0 }
        guard Self.writeAll(bytes, to: fd) else { return false }
        // dup2 clears close-on-exec on fd 0: authdeck-full inherits it.
        return lseek(fd, 0, SEEK_SET) == 0 && dup2(fd, 0) == 0
    }

    /// An anonymous in-memory file (`memfd_create`, looked up at run time: Swift's Glibc module
    /// does not declare it), nil where the kernel or libc has none.
    static func memoryFile() -> Int32? {
        typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") else { return nil }
        let fd = unsafeBitCast(symbol, to: MemfdCreate.self)("authdeck-stdin", 1)  // MFD_CLOEXEC
        return fd >= 0 ? fd : nil
    }

    /// The read end of a pipe already holding the bytes (git's authdeck-full reads only the first
    /// `GitCredentialRequest.limit` of them), nil when they do not fit in the pipe's buffer.
    func pipeHolding() -> Int32? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        defer { close(ends[1]) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)  // a full buffer is a failure, never a wait
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        guard Self.writeAll(bytes.prefix(GitCredentialRequest.limit), to: ends[1]) else {
            close(ends[0])
            return nil
        }
        return ends[0]
    }

    static func isPipe(_ fd: Int32) -> Bool {
        var st = stat()
        return fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO
    }

    static func writeAll(_ bytes: some Collection<UInt8>, to fd: Int32) -> Bool {
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            rest = rest.dropFirst(n)
        }
        return true
    }
}
