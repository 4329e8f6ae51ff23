#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthDeckCore

/// The key file's one line, `authdeck-key-v1:<base64 of 32 bytes>`, as both binaries read it.
public enum KeyFileFormat {
    public static let prefix = "authdeck-key-v1:"

    public enum Problem: Error, Equatable, Sendable {
        case notText, notAKeyFile, badKey
    }

    /// The 32 key bytes of a key file's contents, or what is wrong with them.
    public static func parse(_ contents: [UInt8]) -> Result<[UInt8], Problem> {
        guard let text = String(validating: contents, as: UTF8.self) else { return .failure(.notText) }
        let line = text.trimmingWhitespace()
        guard line.hasPrefix(prefix) else { return .failure(.notAKeyFile) }
        guard let raw = Data(base64Encoded: String(line.dropFirst(prefix.count))), raw.count == 32 else { return .failure(.badKey) }
        return .success(Array(raw))
    }

    /// The file's contents for `key`.
    public static func line(for key: [UInt8]) -> String {
        prefix + Data(key).base64EncodedString() + "\n"
    }
}
