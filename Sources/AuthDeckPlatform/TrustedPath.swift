#if canImport(Glibc)
import Glibc
#endif

/// Whether a file authdeck takes instructions from — config.toml, a theme, a CA file config
/// names, the `authdeck-full` the front runs — could have been written by someone else.
///
/// Why: whoever can write config.toml chooses where tokens go (a `[[credential]]` route, an
/// `authority`), so it is trusted as ssh trusts `~/.ssh/config` (OpenSSH's `safe_path`): the
/// file and every directory above it, up to and including the home directory, must belong to
/// you or to root and be writable by no group and no other user. A sticky directory (`/tmp`)
/// is accepted: others may add names to it but cannot replace a file that is not theirs, and
/// a file they put there belongs to them, which the file's own check refuses.
///
/// The check follows symbolic links to the real file (as `realpath(3)`); when the name given
/// is itself a link, the directory holding the link is checked too, since whoever can write
/// there can point the link elsewhere. Both binaries decide with this one rule.
public enum TrustedPath {
    /// Why `path` must not be used — a phrase naming the file or directory at fault and the
    /// fix, to follow the file's name in an error — or nil when nothing is wrong or nothing is
    /// there (a missing file is the reader's to report).
    /// - Parameter home: the home directory, where the walk up stops (as ssh stops at it);
    ///   nil walks up to `/`.
    public static func problem(_ path: String, home: String?) -> String? {
        guard let real = resolved(path) else { return nil }
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        let linked = absolute != real
        if let problem = walk(from: real, home: home, linked: linked) { return problem }
        guard linked else { return nil }
        // A link (or a "." or ".." in the name): the directories that hold the name given.
        guard let realParent = resolved(directory(of: absolute)) else { return nil }
        return walk(from: realParent, home: home, linked: linked, startsAtDirectory: true)
    }

    /// Why a file must not be created in `directory` (the directory itself or one above it
    /// could be written by others), as a phrase to follow the file's name; nil when it may.
    public static func problem(directory: String, home: String?) -> String? {
        guard let real = resolved(directory) else { return nil }
        return walk(from: real, home: home, linked: false, startsAtDirectory: true)
    }

    /// Checks `real` (a resolved path) and the directories above it.
    private static func walk(from real: String, home: String?, linked: Bool, startsAtDirectory: Bool = false) -> String? {
        let stop = home.map(trimmed)
        var current = real
        var isFile = !startsAtDirectory
        while true {
            var st = stat()
            guard stat(current, &st) == 0 else { return nil }  // gone meanwhile: the reader says so
            if let problem = judge(current, st, isFile: isFile, linked: linked) { return problem }
            if current == "/" || current == stop { return nil }
            current = directory(of: current)
            isFile = false
        }
    }

    /// What is wrong with one component, if anything.
    private static func judge(_ component: String, _ st: stat, isFile: Bool, linked: Bool) -> String? {
        let mine = st.st_uid == geteuid() || st.st_uid == 0
        let writable = st.st_mode & 0o022 != 0
        let sticky = (st.st_mode & S_IFMT) == S_IFDIR && st.st_mode & S_ISVTX != 0
        let mode = octal(st.st_mode & 0o7777)
        if isFile {
            let subject = linked ? "the file it leads to, \(component), is" : "it is"
            if !mine {
                return "\(subject) owned by another user (uid \(st.st_uid)), who could change it, so authdeck will not use it; "
                    + "use a file of your own (copy it, then chmod 600 the copy)"
            }
            if writable {
                return "\(subject) writable by group or others (mode \(mode)), who could change it, so authdeck will not use it; "
                    + "fix it with: chmod go-w \(component)"
            }
            return nil
        }
        if !mine {
            return "the directory \(component) above it belongs to another user (uid \(st.st_uid)), who could replace the file, "
                + "so authdeck will not use it; keep the file in a directory of your own"
        }
        if writable, !sticky {
            return "the directory \(component) above it is writable by group or others (mode \(mode)), who could replace the file, "
                + "so authdeck will not use it; fix it with: chmod go-w \(component)"
        }
        return nil
    }

    /// The real path of `path`, or nil when it cannot be resolved (nothing there).
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func trimmed(_ path: String) -> String {
        var out = Substring(path)
        while out.count > 1, out.hasSuffix("/") { out = out.dropLast() }
        return String(out)
    }

    private static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(cString: buffer)
    }

    private static func octal(_ mode: mode_t) -> String {
        let s = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
