import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The demo's temporary directories (`authdeck-demo-PID-XXXXXX` in the temporary directory;
/// `authdeck-demo-seed-PID-XXXXXX` for `--seed-only`).
enum DemoDirectory {
    /// Creates this demo's directory (0700) under a name nobody can take first.
    ///
    /// Why `mkdtemp`: the temporary directory is shared, and a name made of the pid alone is
    /// known in advance: another local user who created `authdeck-demo-seed-<pid>` first made
    /// `demo --seed-only` fail. The pid stays in the name for `sweep`.
    static func create(in tmp: String, seedOnly: Bool) throws -> String {
        var template = Array((tmp + (seedOnly ? "/authdeck-demo-seed-" : "/authdeck-demo-") + String(getpid()) + "-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CLIError.failure("\(tmp): cannot create the demo directory there (\(String(cString: strerror(errno)))); "
                                   + "set TMPDIR to a directory you can write")
        }
        return String(cString: made)
    }

    /// Removes demo directories of this user whose demo process is gone.
    ///
    /// Why: the emulator removes a dead demo's directory, but not when both were killed at
    /// once (a closed SSH session, `kill -9` of the process group); each run cleans up after
    /// those. A pid that lives on as another program (reused) counts as gone.
    static func sweep(in tmp: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: tmp) else { return }
        for name in names where name.hasPrefix("authdeck-demo-") {
            // `authdeck-demo-PID-XXXXXX`, or `authdeck-demo-PID` of older versions; a seed's
            // (`authdeck-demo-seed-…`) is its script's to remove. One named after this very
            // process was left by an earlier holder of the pid.
            guard let pid = Int32(name.dropFirst("authdeck-demo-".count).prefix { $0 != "-" }), pid > 1,
                  pid == getpid() || !isDemo(pid) else { continue }
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
