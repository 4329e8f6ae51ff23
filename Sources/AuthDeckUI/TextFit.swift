/// Text fitted to a width in cells: cut with `…`, or wrapped at spaces.
public enum TextFit {
    /// `text` if it fits in `width` cells, else its start and `…` (never a half character).
    public static func cut(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        guard CharacterWidth.of(text) > width else { return text }
        var out = "", used = 0
        for ch in text {
            let w = CharacterWidth.of(ch)
            guard used + w <= width - 1 else { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    /// `text` in lines of at most `width` cells, broken at spaces where it can be (a word
    /// longer than a line is broken inside); later lines start with `indent` spaces.
    public static func wrap(_ text: String, _ width: Int, indent: Int = 0) -> [String] {
        guard width > indent + 1, CharacterWidth.of(text) > width else { return [text] }
        var lines: [String] = [], line = "", used = 0, start = 0
        let pad = String(repeating: " ", count: indent)
        func next() {
            lines.append(line)
            (line, used, start) = (pad, indent, indent)
        }
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if used > start, used + 1 + CharacterWidth.of(String(word)) > width { next() }
            if used > start {
                line += " "
                used += 1
            }
            for ch in word {
                let w = CharacterWidth.of(ch)
                if used + w > width { next() }
                line.append(ch)
                used += w
            }
        }
        lines.append(line)
        return lines
    }
}
