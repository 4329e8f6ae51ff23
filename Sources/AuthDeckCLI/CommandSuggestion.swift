import ArgumentParser
import AuthDeckCore

/// "Did you mean" for a mistyped command name, as ArgumentParser already does for options.
///
/// Why: `authdeck acounts` otherwise gets "Unexpected argument 'acounts'", which names no
/// way forward. Walks the subcommand tree as far as the words match, so `authdeck key migrat`
/// is answered too.
enum CommandSuggestion {
    /// The usage error for the first word that names no command where one is expected; nil
    /// when every command word is known (ArgumentParser then reports whatever else is wrong).
    static func check(_ arguments: [String], root: any ParsableCommand.Type = AuthDeckCommand.self) -> CLIError? {
        var command = root
        var path = [root.configuration.commandName ?? "authdeck"]
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-"), word != "help" else { return nil }
            if let next = subcommands.first(where: { names($0).contains(word) }) {
                command = next
                path.append(word)
                continue
            }
            // The root takes no words of its own; a command with subcommands and a default
            // one might, so only the root and commands without a default are checked.
            guard command == root || command.configuration.defaultSubcommand == nil else { return nil }
            let close = Spelling.nearest(word, in: subcommands.flatMap(names))
            let help = "`\(path.joined(separator: " ")) --help` lists them"
            let shown = TerminalText.inert(String(word.prefix(40)))
            if let close {
                return .usage("unknown command \"\(shown)\"; did you mean \"\(close)\"? (\(help))")
            }
            return .usage("unknown command \"\(shown)\" (\(help))")
        }
        return nil
    }

    static func names(_ command: any ParsableCommand.Type) -> [String] {
        [command.configuration.commandName ?? ""] + command.configuration.aliases
    }
}
