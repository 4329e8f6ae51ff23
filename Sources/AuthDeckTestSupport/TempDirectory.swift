import Foundation

/// A private temporary directory removed when the value is released.
public final class TempDirectory: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "authdeck-test") {
        let template = NSTemporaryDirectory() + "\(label).XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { fatalError("mkdtemp failed for \(template)") }
        path = String(cString: made)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes (or replaces) `config/authdeck/config.toml` here — where a home that is also
    /// `XDG_CONFIG_HOME`'s parent keeps authdeck's config — and returns its path.
    @discardableResult
    public func writeConfig(_ text: String) throws -> String {
        try FileManager.default.createDirectory(atPath: file("config/authdeck"), withIntermediateDirectories: true)
        try text.write(toFile: file("config/authdeck/config.toml"), atomically: true, encoding: .utf8)
        return file("config/authdeck/config.toml")
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
