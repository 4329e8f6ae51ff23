#if canImport(Glibc)
import Glibc
#endif

/// A command line and an environment as the NUL-terminated C string arrays `posix_spawn`
/// takes, freed once the spawn has copied them.
///
/// Why one place: the CLI's child processes (`exec`, hooks) and the browser sign-in window
/// spawn the same way, and each copy had to get the terminating nil and the frees right.
public enum SpawnStrings {
    /// Runs `body` with `argv` and `environment` (`KEY=value`, sorted by key) as C arrays.
    public static func with<T>(_ argv: [String], _ environment: [String: String],
                               _ body: ([UnsafeMutablePointer<CChar>?], [UnsafeMutablePointer<CChar>?]) throws -> T) rethrows -> T {
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        return try body(cArgs, cEnv)
    }
}
