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

    /// Writes exactly `buffer` to stdout with write(2). Why: no copy into a `Data` first (a
    /// large store's `accounts --json` runs to megabytes).
    static func write(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let n = Glibc.write(STDOUT_FILENO, base + offset, buffer.count - offset)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// Prints an Encodable as stable JSON: sorted keys, pretty, slashes unescaped.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
