/// The one table of keys: dispatch, the help bar, the `?` overlay and the man page's KEYS
/// all read it, so they cannot disagree.
public enum Keymap {
    /// A key and the command it gives.
    public struct Press: Hashable, Sendable {
        public let key: Key
        public let command: Command
    }

    public struct Binding: Sendable {
        /// The action's stable name, used by `[keys]` overrides in config.toml.
        public let action: String
        /// The default keys and what each does (one command, except for moving).
        public let presses: [Press]
        public let label: String
        public let help: String
        /// Shown in the help bar (the rest only in the `?` overlay), with this short text.
        public let inBar: Bool
        public let short: String

        public var keys: [Key] { presses.map(\.key) }

        init(_ action: String, presses: [Press], label: String, help: String, inBar: Bool, short: String = "") {
            self.action = action
            self.presses = presses
            self.label = label
            self.help = help
            self.inBar = inBar
            self.short = short
        }

        init(_ action: String, _ command: Command, keys: [Key], label: String, help: String, inBar: Bool, short: String = "") {
            self.init(action, presses: keys.map { Press(key: $0, command: command) }, label: label, help: help, inBar: inBar, short: short)
        }
    }

    public static let bindings: [Binding] = [
        Binding("move", presses: [Press(key: .up, command: .moveUp), Press(key: .char("k"), command: .moveUp),
                                  Press(key: .down, command: .moveDown), Press(key: .char("j"), command: .moveDown),
                                  Press(key: .pageUp, command: .pageUp), Press(key: .pageDown, command: .pageDown),
                                  Press(key: .home, command: .first), Press(key: .end, command: .last)],
                label: "↑/k, ↓/j", help: "move up and down (PgUp, PgDn, Home, End too); a mouse click selects a row", inBar: false),
        Binding("pane", .switchPane, keys: [.tab, .backTab], label: "Tab",
                help: "switch between the providers and accounts panes (Enter on a provider filters by it)", inBar: false),
        Binding("renew", .renew, keys: [.enter, .char("r")], label: "Enter/r", help: "re-sign-in: renew silently, else sign in (device code, browser, or a password asked in a window)", inBar: true, short: "re-sign-in"),
        Binding("renew_all", .renewAll, keys: [.char("R")], label: "R", help: "renew every expired or expiring account", inBar: true, short: "renew all"),
        Binding("filter", .filter, keys: [.char("/")], label: "/", help: "filter accounts (Esc clears)", inBar: true, short: "filter"),
        Binding("sort", .sort, keys: [.char("s")], label: "s", help: "sort by expiry, provider, name, last used", inBar: true, short: "sort"),
        Binding("prune", .prune, keys: [.char("p")], label: "p", help: "prune stale accounts (preview, then y)", inBar: true, short: "prune"),
        Binding("undo", .undoPrune, keys: [.char("u")], label: "u", help: "undo prunes: restore every account in the quarantine", inBar: false),
        Binding("add", .add, keys: [.char("a")], label: "a", help: "add an account: pick a provider, then sign in with its flow", inBar: false),
        Binding("logout", .logout, keys: [.char("d")], label: "d", help: "sign the selected account out (OAM, dynamic OIDC client: optionally clearing the registration)", inBar: false),
        Binding("use", .makeDefault, keys: [.char("*")], label: "*", help: "make the selected account its provider's default (authdeck use): the provider's id then stands for it", inBar: false),
        Binding("theme", .nextTheme, keys: [.char("t")], label: "t", help: "next theme", inBar: false),
        // Ctrl-L never reaches the deck: the terminal layer repaints itself (CursesScreen).
        Binding("repaint", presses: [], label: "Ctrl-L", help: "repaint the whole screen", inBar: false),
        Binding("help", .help, keys: [.char("?")], label: "?", help: "help (Down, Up, PgDn and PgUp page through it)", inBar: true, short: "help"),
        Binding("quit", .quit, keys: [.char("q")], label: "q", help: "quit", inBar: true, short: "quit"),
        // Esc is a window key (`windowPresses`), listed here so `?` and the man page say it.
        Binding("cancel", presses: [], label: "Esc", help: "close a window; in a sign-in window, stop the sign-in; clear the filter", inBar: false),
        // The agent window's keys (`agentPresses`), listed here so `?` and the man page say them.
        Binding("agent", presses: [], label: "o, c, d/Esc",
                help: "when a host asks for an account's credential (the open deck is an agent): allow once, allow for this connection, deny", inBar: false),
    ]

    /// Keys that only the windows (help, prune, sign-out, add, sign-in) answer, each naming
    /// them in its footer; Esc clears the filter in the deck too. Not overridable: the footers
    /// say these keys, and they win over a user's key in a window.
    public static let windowPresses: [Press] = [
        Press(key: .char("y"), command: .confirm),
        Press(key: .char("c"), command: .confirmAndClearRegistration),
        Press(key: .char("n"), command: .decline),
        Press(key: .escape, command: .cancel),
        Press(key: .enter, command: .choose),
        Press(key: .char("o"), command: .openInBrowser),
        Press(key: .char(" "), command: .pageDown),
    ]

    /// Keys of the window in which a host asks for an account's credential (the open deck is
    /// an agent). Not overridable, and they win over every other key there: the window names
    /// them, and `d` must deny even when a user gave `d` to another action. A key meant for the
    /// deck that lands on a window just opened is `d` (sign out) or Esc at worst: both deny.
    public static let agentPresses: [Press] = [
        Press(key: .char("o"), command: .allowOnce),
        Press(key: .char("c"), command: .allowForConnection),
        Press(key: .char("d"), command: .deny),
        Press(key: .escape, command: .deny),
    ]

    /// Parses a key as config.toml writes it: one character, or enter, tab, escape, up,
    /// down, left, right, pageup, pagedown, home, end, backspace.
    public static func key(named text: String) -> Key? {
        if let k = namedKeys[text.lowercased()] { return k }
        return text.count == 1 ? .char(text.first!) : nil
    }

    /// The key names config.toml accepts, in the order the man page lists them.
    static let keyNames = ["enter", "tab", "escape", "up", "down", "left", "right", "pageup", "pagedown", "home", "end", "backspace"]
    static let namedKeys: [String: Key] = Dictionary(uniqueKeysWithValues: zip(keyNames, [
        Key.enter, .tab, .escape, .up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .backspace]))

    public static func name(of key: Key) -> String {
        switch key {
        case .char(let c): return String(c)
        case .enter: return "Enter"
        case .tab: return "Tab"
        case .escape: return "Esc"
        default: return "\(key)"
        }
    }

    /// The actions `[keys]` may give a key: those with one command (moving has several).
    public static var actionNames: [String] { bindings.filter { !$0.keys.isEmpty && $0.action != "move" }.map(\.action) }
}
