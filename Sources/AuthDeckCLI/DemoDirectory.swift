import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The demo's temporary directories (`authdeck-demo-PID` in the temporary directory).
enum DemoDirectory {
    /// Removes demo directories of this user whose demo process is gone.
    ///
    /// Why: the emulator removes a dead demo's directory, but not when both were killed at
    /// once (a closed SSH session, `kill -9` of the process group); each run cleans up after
    /// those. A pid that lives on as another program (reused) counts as gone.
    static func sweep(in tmp: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: tmp) else { return }
        for name in names where name.hasPrefix("authdeck-demo-") {
            // One named after this very process was left by an earlier holder of the pid.
            guard let pid = Int32(name.dropFirst("authdeck-demo-".count)), pid > 1, pid == getpid() || !isDemo(pid) else { continue }
            let path = tmp + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == getuid() else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Whether `pid` is a running authdeck (the front `exec`s authdeck-full under the same pid).
    static func isDemo(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
        return comm.hasPrefix("authdeck")
    }
}
