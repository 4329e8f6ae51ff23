extension Keymap {
    /// Where a key is pressed: the deck itself, or a window over it (help, prune, sign-out,
    /// add, sign-in), or the agent window (a host asking for a credential), whose own keys win
    /// there. Typing a filter is none of them: its keys are text.
    public enum Context: Sendable { case deck, window, agentWindow }

    /// The key table with the user's `[keys]` applied, key → command in each context: what
    /// the reducer asks about every key, so an override holds in the deck and its windows alike.
    public struct Resolved: Equatable, Sendable {
        /// The user's own key by action name (from config.toml), for the help labels.
        public let overrides: [String: Key]
        let deck: [Key: Command]
        let window: [Key: Command]
        let agentWindow: [Key: Command]

        /// The defaults alone.
        public static let standard = Resolved()

        /// A user's key is an alias: the defaults keep working, except a default key the user
        /// gave to another action. In a window, the window's own keys (y, n, Esc…) come first.
        public init(overrides: [String: Key] = [:]) {
            var deck: [Key: Command] = [.escape: .cancel], own: [String: Key] = [:]
            for binding in Keymap.bindings {
                for press in binding.presses { deck[press.key] = press.command }
            }
            for binding in Keymap.bindings {
                guard let key = overrides[binding.action], let command = binding.presses.first?.command, binding.action != "move" else { continue }
                deck[key] = command
                own[binding.action] = key
            }
            var window = deck
            for press in Keymap.windowPresses { window[press.key] = press.command }
            var agentWindow = window
            for press in Keymap.agentPresses { agentWindow[press.key] = press.command }
            self.overrides = own
            self.deck = deck
            self.window = window
            self.agentWindow = agentWindow
        }

        /// The command `key` gives in `context`, if any.
        public func command(for key: Key, in context: Context) -> Command? {
            switch context {
            case .deck: deck[key]
            case .window: window[key]
            case .agentWindow: agentWindow[key]
            }
        }

        /// A binding's keys as the help shows them: the user's own first, then the defaults.
        public func label(of binding: Binding) -> String {
            overrides[binding.action].map { "\(Keymap.name(of: $0))/" + binding.label } ?? binding.label
        }
    }
}
