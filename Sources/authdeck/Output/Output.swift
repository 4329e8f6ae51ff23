import Foundation

/// Writing to stdout and stderr in one place, so messages share one prefix and style.
enum Output {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("authdeck: \(message)\n".utf8))
    }

    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("authdeck: warning: \(message)\n".utf8))
    }

    static func note(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }

    /// Writes exactly `text` to stdout (no added newline), for tokens and jars.
    static func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes exactly `bytes` to stdout.
    static func bytes(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Prints an Encodable as stable JSON: sorted keys, pretty, slashes unescaped.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
