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

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
