/// Frames limited to what the terminal's locale can show.
extension ScreenBuffer {
    /// This frame with every character the terminal would not show at its cell width replaced:
    /// a one-cell character by its ASCII form (`AsciiForm`), a wide one by `?` in each cell.
    /// Why: curses places characters by the locale's widths; a character shown wider or
    /// narrower than the frame laid it out (or not at all) moved the rest of its row.
    /// - Parameter shownWidth: the terminal's width of a character (−1 when it cannot show it).
    public func limited(to shownWidth: (Character) -> Int) -> ScreenBuffer {
        var out = self
        for i in cells.indices where !cells[i].continuation {
            let ch = cells[i].character
            guard let first = ch.unicodeScalars.first, first.value > 0x7E || first.value < 0x20 else { continue }
            let wide = i % width + 1 < width && cells[i + 1].continuation
            let w = wide ? 2 : 1
            guard shownWidth(ch) != w else { continue }
            out.cells[i].character = wide ? "?" : AsciiForm.of(ch)
            if ch == "…", spelledOut(at: i) {
                for j in i...(i + 2) { out.cells[j].character = "." }
            }
            if wide {
                out.cells[i + 1].character = "?"
                out.cells[i + 1].continuation = false
            }
        }
        return out
    }

    /// Whether the `…` at `i` can be written `...`: the two cells after it are blank and the
    /// one after those ends the row, is blank or is a border, so no word is touched.
    /// Why: prose ("Waiting…") reads as prose; a cut inside a column keeps its one cell.
    private func spelledOut(at i: Int) -> Bool {
        let x = i % width
        guard x + 2 < width else { return false }
        for j in (i + 1)...(i + 2) where cells[j].character != " " || cells[j].continuation { return false }
        guard x + 3 < width else { return true }
        let next = cells[i + 3].character
        return next == " " || next == "│" || next == "|"
    }
}
