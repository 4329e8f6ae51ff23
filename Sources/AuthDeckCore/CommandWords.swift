/// A command line written in config.toml, split into argv as a shell splits words (spaces,
/// single and double quotes, backslash) — without a shell, so nothing in it is expanded or run
/// but the program it names.
public enum CommandWords {
    /// The words, or nil for an unclosed quote or a trailing backslash.
    public static func split(_ text: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character? = nil
        var escaping = false
        for c in text {
            if escaping { current.append(c); escaping = false; inWord = true; continue }
            if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaping = true } else { current.append(c) }
                continue
            }
            switch c {
            case "\\": escaping = true; inWord = true
            case "'", "\"": quote = c; inWord = true
            case " ", "\t", "\n": if inWord { words.append(current); current = ""; inWord = false }
            default: current.append(c); inWord = true
            }
        }
        guard quote == nil, !escaping else { return nil }
        if inWord { words.append(current) }
        return words
    }
}
