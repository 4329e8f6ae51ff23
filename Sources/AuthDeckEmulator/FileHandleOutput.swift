#if canImport(Glibc)
import Glibc
#endif

/// Minimal stderr output without Foundation, for the emulator's command line.
public enum FileHandleOutput {
    public static func standardError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}
