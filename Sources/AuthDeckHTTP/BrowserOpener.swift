import Foundation
import AuthDeckCore

/// Opens a URL in the user's browser, or says it cannot (SSH, no display).
///
/// Order: `$BROWSER` (colon-separated commands; `%s` is replaced by the URL, else the URL is
/// appended), then `xdg-open` when a display is present. The caller prints the URL in every
/// case, so a person on a headless machine can open it elsewhere.
///
/// The browser is a child like `exec`'s command and the hooks: it gets `ChildEnvironment`'s
/// environment (no `AUTHDECK_PASSWORD`, no `client_secret_env` variable), which is why the
/// providers are needed to make one. Only a URL `WebLink.problemOpening` accepts (https, or
/// http on loopback) reaches its argv — never `file:`, `javascript:` or an `--option`.
public struct BrowserOpener: URLOpening {
    /// The environment the browser starts with: authdeck's, less its secrets.
    public let environment: [String: String]

    /// `environment` is authdeck's own; `providers` name the `client_secret_env` variables.
    public init(environment: [String: String], withholdingSecretsOf providers: [ProviderProfile]) {
        self.environment = ChildEnvironment.scrubbed(environment, providers: providers)
    }

    /// Tries to open `url`; returns the command that was started, or nil (also for a URL that
    /// may not be opened: callers check `WebLink.problemOpening` first to say why).
    @discardableResult
    public func open(_ url: String) -> String? {
        guard WebLink.problemOpening(url, field: "the URL") == nil else { return nil }
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
