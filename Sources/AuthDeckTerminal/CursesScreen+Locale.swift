import CNcursesw
import AuthDeckUI

/// Widths as the locale in use has them, which is how curses places characters.
extension CursesScreen {
    /// The terminal's width of `ch` (its first scalar, the one drawn) in the current locale;
    /// −1 when the locale cannot show it. ASCII is asked about nowhere: `limited` skips it.
    func shownWidth(_ ch: Character) -> Int {
        guard let scalar = ch.unicodeScalars.first else { return -1 }
        if let w = widths[scalar.value] { return w }
        let w = Int(wcwidth(wchar_t(scalar.value)))
        widths[scalar.value] = w
        return w
    }
}
