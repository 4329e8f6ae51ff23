import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ends the emulator when the process that started it is gone.
///
/// Why: the demo may die without a chance to stop it (SIGKILL, a crash); an orphaned emulator
/// would keep its port and the demo's store, key and config in /tmp for ever. Polling getppid
/// catches every way a parent ends, where PR_SET_PDEATHSIG follows the spawning thread.
enum ParentWatch {
    /// Watches for the parent to stop being `parent` (the pid is given, not read here: a
    /// parent dead before this line ran would otherwise look like init and be watched for ever).
    static func start(parent: Int32, removing directory: String?) {
        // The terminal's Ctrl-C and hang-up reach the whole foreground process group, this
        // child too: the parent decides, and this process follows it out (and cleans up).
        signal(SIGINT, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        signal(SIGQUIT, SIG_IGN)
        let thread = Thread {
            while getppid() == parent { usleep(200_000) }
            if let directory { try? FileManager.default.removeItem(atPath: directory) }
            FileHandle.standardError.write(Data("authdeck-idp: the process that started me is gone; exiting\n".utf8))
            exit(0)
        }
        thread.start()
    }

    /// Whether `path` is a directory of this user named like a demo's: the only thing
    /// `--remove` may delete.
    static func isDemoDirectory(_ path: String) -> Bool {
        var st = stat()
        guard path.hasPrefix("/"), lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == getuid() else { return false }
        return (path as NSString).lastPathComponent.hasPrefix("authdeck-demo-")
    }
}
