/// The one table of keys: dispatch, the help bar, the `?` overlay and the man page's KEYS
/// all read it, so they cannot disagree.
public enum Keymap {
    public struct Binding: Sendable {
        /// The action's stable name, used by `[keys]` overrides in config.toml.
        public let action: String
        public let keys: [Key]
        public let label: String
        public let help: String
        /// Shown in the help bar (the rest only in the `?` overlay), with this short text.
        public let inBar: Bool
        public let short: String

        init(_ action: String, keys: [Key], label: String, help: String, inBar: Bool, short: String = "") {
            self.action = action
            self.keys = keys
            self.label = label
            self.help = help
            self.inBar = inBar
            self.short = short
        }
    }

    public static let bindings: [Binding] = [
        Binding("move", keys: [.up, .char("k"), .down, .char("j")], label: "↑/k, ↓/j",
                help: "move up and down (PgUp, PgDn, Home, End too); a mouse click selects a row", inBar: false),
        Binding("pane", keys: [.tab, .backTab], label: "Tab",
                help: "switch between the providers and accounts panes (Enter on a provider filters by it)", inBar: false),
        Binding("renew", keys: [.enter, .char("r")], label: "Enter/r", help: "re-sign-in: renew silently, else sign in (device code or browser)", inBar: true, short: "re-sign-in"),
        Binding("renew_all", keys: [.char("R")], label: "R", help: "renew every expired or expiring account", inBar: true, short: "renew all"),
        Binding("filter", keys: [.char("/")], label: "/", help: "filter accounts (Esc clears)", inBar: true, short: "filter"),
        Binding("sort", keys: [.char("s")], label: "s", help: "sort by expiry, provider, name, last used", inBar: true, short: "sort"),
        Binding("prune", keys: [.char("p")], label: "p", help: "prune stale accounts (preview, then y)", inBar: true, short: "prune"),
        Binding("undo", keys: [.char("u")], label: "u", help: "undo the last prune (restore from quarantine)", inBar: false),
        Binding("add", keys: [.char("a")], label: "a", help: "add an account: pick a provider, then sign in with its flow", inBar: false),
        Binding("logout", keys: [.char("d")], label: "d", help: "sign the selected account out (OAM: optionally clearing the registration)", inBar: false),
        Binding("theme", keys: [.char("t")], label: "t", help: "next theme", inBar: false),
        Binding("repaint", keys: [], label: "Ctrl-L", help: "repaint the whole screen", inBar: false),
        Binding("help", keys: [.char("?")], label: "?", help: "help (Down, Up, PgDn and PgUp page through it)", inBar: true, short: "help"),
        Binding("quit", keys: [.char("q")], label: "q", help: "quit", inBar: true, short: "quit"),
    ]

    /// Applies user overrides (`[keys]` in config.toml: action name → a key): the new key
    /// becomes an alias of the action's first default key, and labels show it.
    public static func remap(_ overrides: [String: Key]) -> (keys: [Key: Key], labels: [String: String]) {
        var keys: [Key: Key] = [:], labels: [String: String] = [:]
        for binding in bindings {
            guard let key = overrides[binding.action], let target = binding.keys.first, binding.action != "move" else { continue }
            keys[key] = target
            labels[binding.action] = name(of: key)
        }
        return (keys, labels)
    }

    /// Parses a key as config.toml writes it: one character, or enter, tab, escape, up,
    /// down, left, right, pageup, pagedown, home, end, backspace.
    public static func key(named text: String) -> Key? {
        let named: [String: Key] = ["enter": .enter, "tab": .tab, "escape": .escape, "up": .up, "down": .down, "left": .left,
                                    "right": .right, "pageup": .pageUp, "pagedown": .pageDown, "home": .home, "end": .end,
                                    "backspace": .backspace]
        if let k = named[text.lowercased()] { return k }
        return text.count == 1 ? .char(text.first!) : nil
    }

    public static func name(of key: Key) -> String {
        switch key {
        case .char(let c): return String(c)
        case .enter: return "Enter"
        case .tab: return "Tab"
        case .escape: return "Esc"
        default: return "\(key)"
        }
    }

    public static var actionNames: [String] { bindings.filter { !$0.keys.isEmpty && $0.action != "move" }.map(\.action) }
}
