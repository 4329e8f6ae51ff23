#if canImport(Glibc)
import Glibc
#endif

/// Keeps authdeck's memory — decrypted tokens and cookies, the data key — out of core files
/// and crash reports.
///
/// Why: a crash with core dumps on (`ulimit -c unlimited`, a core_pattern that writes a file)
/// would put every secret the process held on disk in clear, and the Swift runtime's crash
/// report prints 16 bytes of memory at every register — which can be part of a token. So the
/// soft core limit is set to zero at start, and the crash signals get a handler that prints one
/// line and dies of the same signal. `AUTHDECK_BACKTRACE=1` keeps Swift's full report for
/// debugging. Children (`exec`'s command, `watch`'s hooks, both through `ChildProcess`) get
/// the core limit the user had, and so does `authdeck-full` when the front hands a command
/// over (`handOver()`).
public enum CrashHygiene {
    // nonisolated(unsafe): set once at start-up, before any thread, and read by exec'ing code.
    nonisolated(unsafe) private static var inherited = rlimit()
    nonisolated(unsafe) private static var disabled = false

    static var resource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_CORE.rawValue) }

    public static func install() {
        if getrlimit(resource, &inherited) == 0 {
            var none = rlimit(rlim_cur: 0, rlim_max: inherited.rlim_max)
            disabled = setrlimit(resource, &none) == 0
        }
        if let value = getenv("AUTHDECK_BACKTRACE"), String(cString: value) == "1" { return }
        for sig in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT] {
            signal(sig) { sig in
                let note: StaticString = "authdeck: crashed (a bug, please report it; AUTHDECK_BACKTRACE=1 gives Swift's crash report, which can show memory contents)\n"
                _ = write(2, note.utf8Start, note.utf8CodeUnitCount)
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }

    /// Runs `spawn` with the user's own core limit, which the child inherits; zero again after.
    ///
    /// The raise is process-wide for the moment of the spawn (posix_spawn cannot set a limit in
    /// the child alone, and a child given its limit afterwards with prlimit(2) could already be
    /// running without it); when the user's own limit is zero — Debian's default — nothing is
    /// raised at all.
    public static func withInheritedLimit<T>(_ spawn: () throws -> T) rethrows -> T {
        guard disabled, inherited.rlim_cur != 0 else { return try spawn() }
        var own = inherited
        setrlimit(resource, &own)
        defer {
            var none = rlimit(rlim_cur: 0, rlim_max: inherited.rlim_max)
            setrlimit(resource, &none)
        }
        return try spawn()
    }

    /// Gives the user's own core limit back for good, before this process `exec`s another
    /// program (which installs its own hygiene; signal handlers do not survive `exec`).
    public static func handOver() {
        guard disabled else { return }
        var own = inherited
        setrlimit(resource, &own)
        disabled = false
    }
}
