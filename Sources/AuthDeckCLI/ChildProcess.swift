import Foundation
#if canImport(Glibc)
import Glibc
import AuthDeckPlatform
#endif

/// A child started with `posix_spawnp`: for `authdeck exec`'s command and `watch`'s hooks.
///
/// Why not Foundation's `Process`: the child must inherit the terminal (stdin, stdout and
/// stderr as they are) and nothing else, and start with default signal handling even though
/// authdeck itself ignores SIGINT while it waits; posix_spawn says exactly that.
struct ChildProcess {
    let pid: pid_t

    /// Starts `argv[0]` (searched in PATH) with exactly `environment`; `stdinNull` gives it
    /// /dev/null as stdin (hooks must never read the terminal).
    static func spawn(_ argv: [String], environment: [String: String], stdinNull: Bool = false) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdinNull { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }

        var pid: pid_t = 0
        let rc = SpawnAttributes.with(ownGroup: false) { attr in
            SpawnStrings.with(argv, environment) { cArgs, cEnv in
                CrashHygiene.withInheritedLimit { posix_spawnp(&pid, argv[0], &actions, &attr, cArgs, cEnv) }
            }
        }
        guard rc == 0 else {
            throw CLIError(message: "cannot run \(argv[0]): \(String(cString: strerror(rc)))", status: rc == ENOENT ? 127 : 126)
        }
        return ChildProcess(pid: pid)
    }

    /// Waits for the child on a worker thread; returns its exit status, or 128 + the signal
    /// that killed it (the shell's convention).
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let signal = status & 0x7f
                continuation.resume(returning: signal == 0 ? (status >> 8) & 0xff : 128 + signal)
            }
        }
    }
}
