import Foundation

/// Opens a URL in the user's browser, or says it cannot (SSH, no display).
///
/// Order: `$BROWSER` (colon-separated commands; `%s` is replaced by the URL, else the URL is
/// appended), then `xdg-open` when a display is present. The caller prints the URL in every
/// case, so a person on a headless machine can open it elsewhere.
public struct BrowserOpener: Sendable {
    let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Tries to open `url`; returns the command that was started, or nil.
    @discardableResult
    public func open(_ url: String) -> String? {
        var commands: [String] = []
        if let browser = environment["BROWSER"], !browser.isEmpty {
            commands += browser.split(separator: ":").map(String.init)
        }
        let hasDisplay = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        if hasDisplay { commands.append("xdg-open") }
        for command in commands {
            var words = command.split(separator: " ").map(String.init)
            guard !words.isEmpty else { continue }
            if words.contains("%s") { words = words.map { $0 == "%s" ? url : $0 } } else { words.append(url) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = words
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            if (try? process.run()) != nil { return words[0] }
        }
        return nil
    }
}
