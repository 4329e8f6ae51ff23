import Foundation
import AuthDeckCore

/// The Chromium-family browser a sign-in window runs in: the provider's `options.browser`,
/// else `AUTHDECK_BROWSER`, else the first of the usual names found in `PATH`.
///
/// Why Chromium only, and not `$BROWSER`: keeping a site's cookies means reading its HttpOnly
/// cookies, which only the DevTools protocol over a pipe gives, and only Chromium-family
/// browsers (Chromium, Google Chrome, Microsoft Edge) speak it; `$BROWSER` may be anything.
public struct SignInBrowser: Sendable, Equatable {
    /// The browser's absolute path.
    public let executable: String

    /// The names searched in `PATH` when nothing is configured, most likely first
    /// (Debian/Fedora, Ubuntu, Google's and Microsoft's packages).
    public static let searched = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
                                  "microsoft-edge", "microsoft-edge-stable"]

    /// Finds the browser: `configured` (a path, or a name searched in `PATH`) first, else
    /// `AUTHDECK_BROWSER` of `environment`, else `searched`. A configured browser that is not
    /// there is named, never silently replaced by another one.
    public static func find(configured: String?, providerId: String, environment: [String: String]) throws -> SignInBrowser {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        if let configured, !configured.isEmpty {
            guard let found = locate(configured, path: path) else {
                throw Refusal.failure("options.browser of provider \"\(TerminalText.inert(providerId))\" names \"\(TerminalText.inert(configured))\", "
                                      + "which is not an executable file\(configured.contains("/") ? "" : " in PATH (\(path))")")
            }
            return SignInBrowser(executable: found)
        }
        if let named = environment["AUTHDECK_BROWSER"], !named.isEmpty {
            guard let found = locate(named, path: path) else {
                throw Refusal.failure("AUTHDECK_BROWSER names \"\(TerminalText.inert(named))\", which is not an executable file\(named.contains("/") ? "" : " in PATH (\(path))")")
            }
            return SignInBrowser(executable: found)
        }
        for name in searched {
            if let found = locate(name, path: path) { return SignInBrowser(executable: found) }
        }
        throw Refusal.failure("no Chromium-family browser for the sign-in window: looked for \(searched.joined(separator: ", ")) in PATH (\(path)); "
                              + "install one, or name it with options.browser of provider \"\(TerminalText.inert(providerId))\" in config.toml or AUTHDECK_BROWSER")
    }

    /// `name` itself when it holds a slash, else the first executable `name` in `path`.
    static func locate(_ name: String, path: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }
}
