import Foundation
import AuthDeckPlatform
#if canImport(Glibc)
import Glibc
#endif

/// Where authdeck's companion files are, found from the running binary's own file
/// (`InstallPaths`, shared with the front). Layouts: the build tree (`.build/<triple>/debug/`,
/// themes in the checkout) and an install by `scripts/install` (`PREFIX/bin/authdeck`,
/// `PREFIX/libexec/authdeck/authdeck-full` and `authdeck-idp`, `PREFIX/share/authdeck/themes`).
enum InstallLayout {
    /// The directory of the running binary, symlinks resolved.
    static var binaryDirectory: URL { URL(fileURLWithPath: InstallPaths.binaryDirectory) }

    /// Shipped theme directories, most specific first.
    static var themeDirectories: [String] {
        let dir = binaryDirectory
        return ["../../themes", "../../../themes", "../share/authdeck/themes", "../../share/authdeck/themes"]
            .map { dir.appendingPathComponent($0).standardized.path }
    }

    /// The places a companion executable (`authdeck-idp`) may be.
    static func helperCandidates(_ name: String) -> [String] {
        InstallPaths.companion(name).map { URL(fileURLWithPath: $0).standardized.path }
    }
}
