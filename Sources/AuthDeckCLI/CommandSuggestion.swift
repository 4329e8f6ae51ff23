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
            let candidates = subcommands.flatMap(names)
            let close = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= max(1, word.count / 3) }.min { $0.1 < $1.1 }
            let help = "`\(path.joined(separator: " ")) --help` lists them"
            let shown = TerminalText.inert(String(word.prefix(40)))
            if let close {
                return .usage("unknown command \"\(shown)\"; did you mean \"\(close.0)\"? (\(help))")
            }
            return .usage("unknown command \"\(shown)\" (\(help))")
        }
        return nil
    }

    static func names(_ command: any ParsableCommand.Type) -> [String] {
        [command.configuration.commandName ?? ""] + command.configuration.aliases
    }

    /// Levenshtein distance, adjacent transpositions counting one (`acocunts`).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
