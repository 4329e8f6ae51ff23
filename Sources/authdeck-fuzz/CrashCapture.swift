#if canImport(Glibc)
import Glibc
#endif

/// Keeps the input being run where a signal handler can write it out: a Swift trap or a
/// memory fault kills the process, and the input that did it must survive to be replayed.
///
/// Everything the handler touches is allocated up front; it only calls open/write/_exit.
enum CrashCapture {
    nonisolated(unsafe) static var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
    nonisolated(unsafe) static var length = 0
    nonisolated(unsafe) static var path = UnsafeMutablePointer<CChar>.allocate(capacity: 4096)
    /// When the input being run started (monotonic seconds), for the hang watchdog.
    nonisolated(unsafe) static var startedAt = 0.0
    nonisolated(unsafe) static var watching = false

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Writes the held input to the crash file and ends the process with `status`.
    static func dump(_ note: StaticString, status: Int32) -> Never {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd >= 0 {
            _ = write(fd, buffer, length)
            close(fd)
        }
        _ = write(2, note.utf8Start, note.utf8CodeUnitCount)
        _exit(status)
    }

    /// A thread that ends the run when one input takes longer than `limit` seconds: a parser
    /// that hangs or goes quadratic on hostile input is as much a finding as a crash.
    static func watch(limit: Double) {
        self.limit = limit
        guard !watching else { return }
        watching = true
        var thread = pthread_t()
        pthread_create(&thread, nil, { _ in
            while true {
                sleep(1)
                let started = CrashCapture.startedAt
                if started > 0, CrashCapture.monotonic() - started > CrashCapture.limit {
                    CrashCapture.dump("authdeck-fuzz: one input ran too long (hang); the input is in the crash file\n", status: 71)
                }
            }
        }, nil)
    }
    nonisolated(unsafe) static var limit = 10.0

    /// Installs the handler for the signals a crash raises; the crash file goes to `file`.
    static func install(file: String) {
        _ = file.withCString { strncpy(path, $0, 4095) }
        path[4095] = 0
        for sig in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            signal(sig) { _ in
                CrashCapture.dump("authdeck-fuzz: crashed (signal); the input is in the crash file\n", status: 70)
            }
        }
    }

    /// Records `input` as the one about to run.
    static func hold(_ input: [UInt8]) {
        startedAt = 0
        length = min(input.count, 1 << 16)
        if length > 0 { input.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: length) } }
        startedAt = monotonic()
    }
}
