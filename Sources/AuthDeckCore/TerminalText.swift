/// Makes text that came from a server safe to print to a terminal.
///
/// Display names, usernames and error descriptions are attacker-controlled: an escape
/// sequence in a name could retitle the window, clear the screen or fake output. Control
/// characters become visible Unicode "control pictures" (␛, ␇, ␊…), so the text stays
/// readable and inert.
public enum TerminalText {
    public static func inert(_ text: String) -> String {
        inert(text, keepingLineBreaks: false)
    }

    /// `inert`, except that line feeds (and tabs) stay: for whole messages on stderr, which
    /// authdeck itself lays out over several lines. Every other control is shown as a picture,
    /// so a carriage return cannot overwrite a line and no escape sequence reaches the terminal.
    public static func inertMessage(_ text: String) -> String {
        inert(text, keepingLineBreaks: true)
    }

    static func inert(_ text: String, keepingLineBreaks: Bool) -> String {
        // Most text needs no change, and checking the bytes is cheaper than rebuilding the
        // string: the deck does this for every line it draws.
        if !needsChange(text) { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingLineBreaks, 0x09 where keepingLineBreaks:
                out.append(scalar)
            case 0x00...0x1F:
                out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F:
                out.append(Unicode.Scalar(0x2421)!)
            case 0x80...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                // C1 controls and bidi overrides: shown as a replacement character.
                out.append(Unicode.Scalar(0xFFFD)!)
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `text` holds anything `inert` replaces, judged on its UTF-8 bytes: C0 controls
    /// and DEL (one byte), C1 controls (C2 80–9F), bidi marks and overrides (E2 80 8E–8F,
    /// E2 80 AA–AE, E2 81 A6–A9).
    static func needsChange(_ text: String) -> Bool {
        // Printable ASCII (0x20–0x7E), the usual case, in one pass.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return false }
        var utf8 = text.utf8.makeIterator()
        while let b = utf8.next() {
            if b < 0x20 || b == 0x7F { return true }
            if b == 0xC2, let c = utf8.next(), (0x80...0x9F).contains(c) { return true }
            if b == 0xE2, let c = utf8.next(), let d = utf8.next() {
                if c == 0x80, d == 0x8E || d == 0x8F || (0xAA...0xAE).contains(d) { return true }
                if c == 0x81, (0xA6...0xA9).contains(d) { return true }
            }
        }
        return false
    }
}
