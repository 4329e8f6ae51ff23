/// The one-cell ASCII stand-in of each glyph the deck draws, for terminals whose locale
/// cannot show it (`LANG=C`).
///
/// Why: curses writes a character the locale cannot encode as several cells of escape text,
/// shifting the rest of the row and leaving debris; a stand-in of the same
/// width keeps every column where the frame put it.
public enum AsciiForm {
    /// Each meaning its own form: `~` once stood for the cut, the renew-due badge and (by
    /// habit) a home directory, so `~769/authdeck.db` read as a path that does not exist.
    static let forms: [Character: Character] = [
        "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+",
        "●": "+", "◐": "%", "○": "o", "▲": "!", "✕": "X", "■": "#",
        "…": ">", "·": ".", "—": "-", "–": "-", "↻": "@", "▸": "*", "█": "_", "×": "x",
        "↑": "^", "↓": "v", "▾": "v", "‹": "<", "›": ">", "“": "\"", "”": "\"", "‘": "'", "’": "'", "⇄": "=",
    ]

    /// The stand-in of `ch`: its ASCII form, else `?`.
    public static func of(_ ch: Character) -> Character { forms[ch] ?? "?" }
}
