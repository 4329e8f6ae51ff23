import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where authdeck's companion files are, found from the running binary's own file.
///
/// Why /proc/self/exe and not argv[0]: the front `exec`s authdeck-full with the user's argv,
/// whose first word is often just `authdeck` (found on PATH), which names no directory.
/// Layouts: the build tree (`.build/<triple>/debug/`, themes in the checkout) and an install
/// by `scripts/install` (`PREFIX/bin/authdeck`, `PREFIX/libexec/authdeck/authdeck-full` and
/// `authdeck-idp`, `PREFIX/share/authdeck/themes`).
enum InstallLayout {
    /// The directory of the running binary, symlinks resolved.
    static var binaryDirectory: URL {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Shipped theme directories, most specific first.
    static var themeDirectories: [String] {
        let dir = binaryDirectory
        return ["../../themes", "../../../themes", "../share/authdeck/themes", "../../share/authdeck/themes"]
            .map { dir.appendingPathComponent($0).standardized.path }
    }

    /// The places a companion executable (`authdeck-idp`) may be: beside this binary, then
    /// in the install's libexec directory.
    static func helperCandidates(_ name: String) -> [String] {
        let dir = binaryDirectory
        return [dir.appendingPathComponent(name).path,
                dir.appendingPathComponent("../libexec/authdeck/\(name)").standardized.path]
    }
}
