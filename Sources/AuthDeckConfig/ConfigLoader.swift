import Foundation
import TOMLKit
import AuthDeckCore
import AuthDeckLook
import AuthDeckPlatform

/// Reads and validates config.toml into a `DeckConfig`.
///
/// Validation is done here, key by key, rather than through `Decodable`: TOMLKit reports a
/// wrong type as "key not found", which sends users hunting for a key that is right there.
/// Unknown keys are errors (with a "did you mean"), so a typo never silently does nothing.
public enum ConfigLoader {
    /// Loads `path`. A missing file gives the defaults unless `required` (an explicit
    /// `--config`), in which case it is an error. A file others could have written, or one in
    /// a directory they could write (up to `home`), is refused: whoever writes config.toml
    /// chooses where tokens go (`TrustedPath`, as ssh trusts ~/.ssh/config).
    public static func load(path: String, required: Bool, home: String? = nil) throws -> DeckConfig {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if required {
                throw ConfigError(path: path, location: nil, problem: "no such config file (named by --config or AUTHDECK_CONFIG): "
                                  + "give an existing file, or neither to read the default config.toml")
            }
            return DeckConfig(path: path, fileExists: false)
        }
        // (It said "cannot read the file (permissions?)" for a directory.)
        guard !isDirectory.boolValue else {
            throw ConfigError(path: path, location: nil, problem: "a directory, not a config file: give the path of the file itself (config.toml)")
        }
        if let problem = TrustedPath.problem(path, home: home) {
            throw ConfigError(path: path, location: nil, problem: problem)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(path: path, location: nil, problem: "cannot read the file (permissions?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(path: path, location: nil, problem: "not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses config text; `path` is used in error messages only.
    public static func parse(_ text: String, path: String) throws -> DeckConfig {
        let root = try TOMLDocument.parse(text, path: path)
        var config = DeckConfig(path: path, fileExists: true)
        let top = TableReader(table: root, path: path, location: nil)
        try top.rejectUnknown(["expiring_soon", "clock_skew", "prune", "provider", "keys", "hooks", "credential", "agent", "agent_confirm"])
        if let hooks = try top.table("hooks", location: "[hooks]") {
            try hooks.rejectUnknown(DeckHooks.keys)
            config.hooks = DeckHooks(onRenewed: try hooks.string("on_renewed"), onNeedsSignIn: try hooks.string("on_needs_sign_in"),
                                     onExpiring: try hooks.string("on_expiring"))
        }
        if let keys = try top.table("keys", location: "[keys]") {
            try keys.rejectUnknown(Keymap.actionNames)
            for action in Keymap.actionNames {
                guard let text = try keys.string(action) else { continue }
                guard let key = Keymap.key(named: text) else {
                    throw keys.fail("\"\(action)\" must be one character or enter, tab, escape, up, down, left, right, pageup, pagedown, home, end, backspace (found \"\(text)\")")
                }
                // An alias must not take another action's key: that action would become
                // unreachable from the keyboard, with nothing on screen to say why.
                if let taken = Keymap.bindings.first(where: { $0.action != action && $0.keys.contains(key) }) {
                    throw keys.fail("\"\(action)\" = \"\(text)\" is already the key of \"\(taken.action)\" (\(taken.help)); choose another key")
                }
                if let other = config.keys.first(where: { Keymap.key(named: $0.value) == key })?.key {
                    throw keys.fail("\"\(action)\" and \"\(other)\" are both given \"\(text)\"; give each action its own key")
                }
                config.keys[action] = text
            }
        }
        if let v = try top.duration("expiring_soon") { config.statePolicy.expiringSoonWindow = v }
        if let v = try top.duration("clock_skew") { config.statePolicy.clockSkew = v }
        if let prune = try top.table("prune", location: "[prune]") {
            try prune.rejectUnknown(["sign_in_grace", "rejected_grace", "unused_after"])
            if let v = try prune.duration("sign_in_grace") { config.pruneSettings.signInGrace = v }
            if let v = try prune.duration("rejected_grace") { config.pruneSettings.rejectedGrace = v }
            if try prune.string("unused_after") == "off" {
                config.pruneSettings.unusedAfter = nil
            } else if let v = try prune.duration("unused_after", extra: "or \"off\"") {
                config.pruneSettings.unusedAfter = v
            }
        }
        if let list = root["provider"] {
            guard let array = list.array else {
                throw ConfigError(path: path, location: nil,
                                  problem: "\"provider\" must be an array of tables: write each one as [[provider]]")
            }
            for (index, element) in array.enumerated() {
                guard let table = element.table else {
                    throw ConfigError(path: path, location: "provider #\(index + 1)", problem: "must be a table ([[provider]])")
                }
                let profile = try ProviderReader.read(table, index: index, path: path)
                if config.providers.contains(where: { $0.id == profile.id }) {
                    throw ConfigError(path: path, location: "provider \"\(profile.id)\"", problem: "id is used by an earlier provider too")
                }
                config.providers.append(profile)
            }
        }
        if let list = root["credential"] {
            guard let array = list.array else {
                throw ConfigError(path: path, location: nil, problem: "\"credential\" must be an array of tables: write each one as [[credential]]")
            }
            for (index, element) in array.enumerated() {
                guard let table = element.table else {
                    throw ConfigError(path: path, location: "credential #\(index + 1)", problem: "must be a table ([[credential]])")
                }
                let route = try CredentialReader.read(table, index: index, path: path)
                if config.credentials.contains(where: { $0.url == route.url }) {
                    throw ConfigError(path: path, location: "credential #\(index + 1)", problem: "url \"\(route.url)\" has an earlier [[credential]] entry too")
                }
                config.credentials.append(route)
            }
        }
        try AgentReader.read(root, path: path, into: &config)
        return config
    }
}
