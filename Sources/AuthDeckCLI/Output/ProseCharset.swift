import Foundation

/// authdeck's own punctuation in messages, spelled in ASCII where the locale is not UTF-8.
///
/// Why: under `LANG=C` a terminal shows the bytes of `…` and `—` as debris ("Waiting~",
/// "signing the demo accounts inâ€¦" in the trial). Only the typographic marks authdeck's
/// own sentences use are respelled; names and server text (CJK usernames, the control
/// pictures `TerminalText` makes) stay as they are, since no ASCII form keeps their meaning.
enum ProseCharset {
    /// Whether the locale (LC_ALL, else LC_CTYPE, else LANG; none set means "C") is UTF-8.
    /// Read from the environment as setlocale(3) would, not through `TerminalProbe.localeIsUTF8`,
    /// which calls setlocale itself: every command would then get localized strerror texts.
    static let isUTF8: Bool = {
        let env = ProcessInfo.processInfo.environment
        let name = [env["LC_ALL"], env["LC_CTYPE"], env["LANG"]].lazy.compactMap { $0 }.first { !$0.isEmpty } ?? "C"
        let lower = name.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
    }()

    static let ascii: [Character: String] = [
        "…": "...", "—": "-", "–": "-", "‹": "<", "›": ">", "→": "->", "“": "\"", "”": "\"", "‘": "'", "’": "'", "·": ".",
    ]

    /// `text` as the locale can show it: unchanged in a UTF-8 locale or when it is all ASCII.
    static func spelled(_ text: String) -> String {
        guard !isUTF8, text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text { if let a = ascii[ch] { out += a } else { out.append(ch) } }
        return out
    }
}
