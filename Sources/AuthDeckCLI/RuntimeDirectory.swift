import Foundation

/// Where authdeck puts the short-lived files that hold secrets (exec's cookie jar, the copy of
/// a Firefox cookie database being imported): `$XDG_RUNTIME_DIR`, a per-user tmpfs emptied at
/// logout, so they never reach a disk; else `$TMPDIR` or /tmp.
enum RuntimeDirectory {
    static func path(_ environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, FileManager.default.isWritableFile(atPath: runtime) {
            return runtime
        }
        return environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }
}
