import Foundation
import AuthDeckCore

/// Where a browser the person uses keeps a profile's cookies on Linux, for
/// `import cookies --from BROWSER [--profile NAME]`.
///
/// Chromium-family browsers keep `<config>/<browser dir>/<Profile>/Cookies` (newer versions
/// `…/<Profile>/Network/Cookies`), `Default` unless named; Firefox keeps
/// `~/.mozilla/firefox/<profile>/cookies.sqlite`, found through `profiles.ini`. A profile may
/// also be given as a directory (a profile's, or a Chromium `--user-data-dir`).
public struct BrowserCookieSource: Sendable, Equatable {
    public enum Browser: String, CaseIterable, Sendable {
        case chrome, chromium, edge, firefox

        /// The name people know it by, in messages.
        public var displayName: String {
            switch self {
            case .chrome: "Google Chrome"
            case .chromium: "Chromium"
            case .edge: "Microsoft Edge"
            case .firefox: "Firefox"
            }
        }

        /// The user-data directory's name under `$XDG_CONFIG_HOME` (Chromium family).
        var configDirectory: String {
            switch self {
            case .chrome: "google-chrome"
            case .chromium: "chromium"
            case .edge: "microsoft-edge"
            case .firefox: ""
            }
        }

        /// The `application` attributes the browser's "Safe Storage" item may carry in the
        /// Secret Service, most likely first.
        public var keyringApplications: [String] {
            switch self {
            case .chrome: ["chrome"]
            case .chromium: ["chromium"]
            case .edge: ["microsoft-edge", "Microsoft Edge", "msedge"]
            case .firefox: []
            }
        }

        /// The Secret Service item's label, as the browser names it.
        public var keyringLabel: String { displayName.replacingOccurrences(of: "Google ", with: "") + " Safe Storage" }
    }

    public let browser: Browser
    /// The cookie database found.
    public let database: String

    /// A cookie database named by its path, read as `browser` keeps it.
    public init(browser: Browser, database: String) {
        (self.browser, self.database) = (browser, database)
    }

    /// Finds `browser`'s cookie database for `profile` (a profile name, or a directory;
    /// nil: the default profile). `home` and `configHome` are the person's directories.
    public init(browser: Browser, profile: String?, home: String, configHome: String) throws {
        self.browser = browser
        let fm = FileManager.default
        if browser == .firefox {
            let root = home + "/.mozilla/firefox"
            let dir = try profile.flatMap { $0.contains("/") ? $0 : nil } ?? Self.firefoxProfile(named: profile, in: root)
            let db = dir + "/cookies.sqlite"
            guard fm.fileExists(atPath: db) else { throw Refusal.failure("\(db): no Firefox cookie database there (has Firefox run with this profile?)") }
            database = db
            return
        }
        let dirs: [String]
        if let profile, profile.contains("/") {
            dirs = [profile, profile + "/Default"]
        } else {
            dirs = [configHome + "/" + browser.configDirectory + "/" + (profile ?? "Default")]
        }
        let candidates = dirs.flatMap { [$0 + "/Network/Cookies", $0 + "/Cookies"] }
        guard let found = candidates.first(where: { fm.fileExists(atPath: $0) }) else {
            throw Refusal.failure("no \(browser.displayName) cookie database for profile \"\(TerminalText.inert(profile ?? "Default"))\" (looked for \(candidates.joined(separator: ", "))); name the profile with --profile NAME or a directory")
        }
        database = found
    }

    /// The Firefox profile directory named `name` in `profiles.ini` (its Name or directory),
    /// else the installation's default, else the profile marked Default=1, else the only one.
    static func firefoxProfile(named name: String?, in root: String) throws -> String {
        guard let ini = try? String(contentsOfFile: root + "/profiles.ini", encoding: .utf8) else {
            throw Refusal.failure("\(root)/profiles.ini: cannot read it (is Firefox installed for this user?); or pass the profile's directory with --profile")
        }
        var sections: [(name: String, keys: [String: String])] = []
        for raw in ini.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") && line.hasSuffix("]") {
                sections.append((String(line.dropFirst().dropLast()), [:]))
            } else if let eq = line.firstIndex(of: "="), !sections.isEmpty {
                sections[sections.count - 1].keys[String(line[..<eq])] = String(line[line.index(after: eq)...])
            }
        }
        let profiles = sections.filter { $0.name.hasPrefix("Profile") }
        func directory(_ relative: String, isRelative: Bool = true) -> String { isRelative ? root + "/" + relative : relative }
        func directory(of p: (name: String, keys: [String: String])) -> String? {
            p.keys["Path"].map { directory($0, isRelative: p.keys["IsRelative"] != "0") }
        }
        if let name {
            guard let p = profiles.first(where: { $0.keys["Name"] == name || $0.keys["Path"] == name }), let dir = directory(of: p) else {
                let known = profiles.compactMap { $0.keys["Name"] }.map { "\"\(TerminalText.inert($0))\"" }.joined(separator: ", ")
                throw Refusal.failure("\(root)/profiles.ini has no profile \"\(TerminalText.inert(name))\" (profiles: \(known.isEmpty ? "none" : known))")
            }
            return dir
        }
        if let install = sections.first(where: { $0.name.hasPrefix("Install") })?.keys["Default"] {
            let matching = profiles.first { $0.keys["Path"] == install }
            return directory(install, isRelative: matching?.keys["IsRelative"] != "0")
        }
        if let p = profiles.first(where: { $0.keys["Default"] == "1" }) ?? (profiles.count == 1 ? profiles.first : nil), let dir = directory(of: p) {
            return dir
        }
        throw Refusal.failure("\(root)/profiles.ini names no default profile; choose one with --profile NAME")
    }
}
