#if canImport(Glibc)
import Glibc
#endif

/// The `posix_spawnattr_t` every child of authdeck starts with: SIGINT, SIGQUIT, SIGTERM,
/// SIGHUP and SIGPIPE at their defaults and no signal blocked (authdeck itself ignores some
/// while it waits), and, when asked, a process group of the child's own.
///
/// Why one place: `exec`'s command and the hooks, the browser sign-in window and the agent's
/// confirm command each set this up, and a group of its own is what lets a hung child be
/// killed with everything it started.
public enum SpawnAttributes {
    /// Runs `body` with the attributes; `ownGroup` puts the child in a new process group.
    public static func with<T>(ownGroup: Bool, _ body: (inout posix_spawnattr_t) throws -> T) rethrows -> T {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&empty)
        for sig in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setsigmask(&attr, &empty)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownGroup {
            posix_spawnattr_setpgroup(&attr, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attr, Int16(flags))
        return try body(&attr)
    }
}
