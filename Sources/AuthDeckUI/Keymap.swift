/// The one table of keys: dispatch, the help bar, the `?` overlay and the man page's KEYS
/// all read it, so they cannot disagree.
public enum Keymap {
    public struct Binding: Sendable {
        public let keys: [Key]
        public let label: String
        public let help: String
        /// Shown in the help bar (the rest only in the `?` overlay), with this short text.
        public let inBar: Bool
        public let short: String

        init(keys: [Key], label: String, help: String, inBar: Bool, short: String = "") {
            self.keys = keys
            self.label = label
            self.help = help
            self.inBar = inBar
            self.short = short
        }
    }

    public static let bindings: [Binding] = [
        Binding(keys: [.up, .char("k"), .down, .char("j")], label: "↑/k, ↓/j",
                help: "move up and down (PgUp, PgDn, Home, End too); a mouse click selects a row", inBar: false),
        Binding(keys: [.tab, .backTab], label: "Tab",
                help: "switch between the providers and accounts panes (Enter on a provider filters by it)", inBar: false),
        Binding(keys: [.enter, .char("r")], label: "Enter/r", help: "re-sign-in: renew silently, else sign in (device code or browser)", inBar: true, short: "re-sign-in"),
        Binding(keys: [.char("R")], label: "R", help: "renew every expired or expiring account", inBar: true, short: "renew all"),
        Binding(keys: [.char("/")], label: "/", help: "filter accounts (Esc clears)", inBar: true, short: "filter"),
        Binding(keys: [.char("s")], label: "s", help: "sort by expiry, provider, name, last used", inBar: true, short: "sort"),
        Binding(keys: [.char("p")], label: "p", help: "prune stale accounts (preview, then y)", inBar: true, short: "prune"),
        Binding(keys: [.char("u")], label: "u", help: "undo the last prune (restore from quarantine)", inBar: false),
        Binding(keys: [.char("a")], label: "a", help: "add an account: pick a provider, then sign in with its flow", inBar: false),
        Binding(keys: [.char("d")], label: "d", help: "sign the selected account out (OAM: optionally clearing the registration)", inBar: false),
        Binding(keys: [.char("t")], label: "t", help: "next theme", inBar: false),
        Binding(keys: [.char("?")], label: "?", help: "help", inBar: true, short: "help"),
        Binding(keys: [.char("q")], label: "q", help: "quit", inBar: true, short: "quit"),
    ]
}
