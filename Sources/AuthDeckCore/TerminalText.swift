/// Makes text that came from a server safe to print to a terminal.
///
/// Display names, usernames and error descriptions are attacker-controlled: an escape
/// sequence in a name could retitle the window, clear the screen or fake output. Control
/// characters become visible Unicode "control pictures" (␛, ␇, ␊…), so the text stays
/// readable and inert.
public enum TerminalText {
    public static func inert(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
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
}
