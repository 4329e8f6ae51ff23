#if canImport(Glibc)
import Glibc
#endif

/// Where the running binary is and where its companion executables are: one rule for the
/// front (finding authdeck-full) and authdeck-full (finding authdeck-idp and the themes).
///
/// Why /proc/self/exe and not argv[0]: the front `exec`s authdeck-full with the user's argv,
/// whose first word is often just `authdeck` (found on PATH), which names no directory.
public enum InstallPaths {
    /// The directory of the running binary (the kernel's path, symlinks resolved), or "." when
    /// /proc is not mounted and argv[0] names no directory.
    public static var binaryDirectory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// The places a companion executable may be: beside this binary (the build tree, a plain
    /// copy), then the install's `../libexec/authdeck/` (`scripts/install`).
    public static func companion(_ name: String) -> [String] {
        let dir = binaryDirectory
        return ["\(dir)/\(name)", "\(dir)/../libexec/authdeck/\(name)"]
    }
}
