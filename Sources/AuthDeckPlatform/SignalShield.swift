#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Holds off Ctrl-C, SIGTERM and SIGHUP while a provider answers a renewal and the answer is
/// saved; a second signal ends the process at once. Ctrl-Z (SIGTSTP) waits too: the process
/// stops once the answer is saved.
///
/// Why: a provider that rotates refresh tokens spends the old one as it answers. A command
/// killed between that answer and the commit (`authdeck token` in a prompt, interrupted) would
/// lose the only refresh token left, and with reuse detection the whole grant. One stopped past
/// the request's 30 s timeout would throw away the answer waiting for it, and the account with it.
public enum SignalShield {
    private static let depth = Atomic<Int>(0)
    private static let pending = Atomic<Int32>(0)
    /// A Ctrl-Z held off: the process stops when the shielded stretch ends.
    private static let pendingStop = Atomic<Bool>(false)
    /// A half-written file to remove if a signal ends the process (`removeOnSignal`): the
    /// address of its path as a C string, 0 for none (an Int, as a pointer is not Sendable).
    private static let leftover = Atomic<Int>(0)

    /// Names a file (nil: none) that a signal ending the process removes on the way out: a
    /// download staged beside its destination, which nothing else would ever remove.
    ///
    /// Why here: the handlers below are the process's way out on a signal, and `unlink` is
    /// safe to call in a signal handler. A path once set is never freed (a handler on another
    /// thread may be reading it); it is one short string per download.
    public static func removeOnSignal(_ path: String?) {
        leftover.store(path.flatMap { strdup($0) }.map { Int(bitPattern: $0) } ?? 0, ordering: .sequentiallyConsistent)
    }

    /// Removes the file `removeOnSignal` named, if any: only async-signal-safe calls.
    private static func removeLeftover() {
        if let path = UnsafePointer<CChar>(bitPattern: leftover.load(ordering: .sequentiallyConsistent)) { unlink(path) }
    }

    /// Installs the handlers for a command's process (the deck installs its own over them).
    /// Outside a shielded stretch a signal does what it always did: the process ends of it.
    public static func install() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { sig in
                if SignalShield.depth.load(ordering: .sequentiallyConsistent) > 0,
                   SignalShield.pending.compareExchange(expected: 0, desired: sig, ordering: .sequentiallyConsistent).exchanged {
                    let note: StaticString = "authdeck: saving the renewal the provider is answering (press Ctrl-C again to leave now, losing it)\n"
                    _ = write(2, note.utf8Start, note.utf8CodeUnitCount)
                    return
                }
                SignalShield.removeLeftover()
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
        // Stopped with SIGSTOP, which cannot be caught: the handler stays for the next Ctrl-Z,
        // and the process goes on from here when continued. (The deck gives SIGTSTP back to
        // curses, which restores the terminal around a stop.)
        signal(SIGTSTP) { _ in
            if SignalShield.depth.load(ordering: .sequentiallyConsistent) > 0 {
                if !SignalShield.pendingStop.exchange(true, ordering: .sequentiallyConsistent) {
                    let note: StaticString = "authdeck: stopping once the renewal the provider is answering is saved\n"
                    _ = write(2, note.utf8Start, note.utf8CodeUnitCount)
                }
                return
            }
            kill(getpid(), SIGSTOP)
        }
    }

    /// Runs `body` with signals held off; one that came meanwhile ends the process right after.
    public static func during<T>(_ body: () async throws -> T) async rethrows -> T {
        depth.add(1, ordering: .sequentiallyConsistent)
        defer {
            if depth.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 {
                let sig = pending.exchange(0, ordering: .sequentiallyConsistent)
                if sig != 0 {
                    // To the process, not this thread: Dispatch's worker threads block signals.
                    removeLeftover()
                    signal(sig, SIG_DFL)
                    kill(getpid(), sig)
                }
                if pendingStop.exchange(false, ordering: .sequentiallyConsistent) { kill(getpid(), SIGSTOP) }
            }
        }
        return try await body()
    }
}
