#if canImport(Glibc)
import Glibc
#endif
import AuthDeckPlatform

/// `authdeck-full`, the binary with every command, which the front `exec`s (same pid, same
/// arguments, same environment) for everything it does not answer itself.
///
/// Looked up beside the front's own file (`/proc/self/exe`, symlinks resolved), then in
/// `../libexec/authdeck/` for installs that keep helpers out of `bin`; run only when no one
/// but you or root could have written it (`TrustedPath`).
enum FullBinary {
    static let name = "authdeck-full"

    static func exec(_ arguments: [String]) -> Never {
        let candidates = locations()
        guard let path = candidates.first(where: { access($0, X_OK) == 0 }) else {
            fail("cannot find \(name) (looked for \(candidates.joined(separator: " and "))); install it beside authdeck")
        }
        // It runs with every secret of the store within reach: one that others could have
        // written, or placed in a directory they can write, is refused as the store's files are.
        let home = getenv("HOME").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        if let problem = TrustedPath.problem(path, home: home) { fail("will not run \(path): \(problem)") }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        execv(path, &argv)
        fail("cannot run \(path): \(String(cString: strerror(errno)))")
    }

    static func locations() -> [String] { InstallPaths.companion(name) }

    static func fail(_ message: String) -> Never {
        let line = "authdeck: \(message)\n"  // as authdeck-full prints errors
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        exit(1)
    }
}
