import Testing
import AuthDeckCore
@testable import AuthDeckUI

/// The off-screen grid keeps wide characters whole, and frames limited to a locale keep
/// every cell where it was laid out.
@Suite struct ScreenBufferTests {
    /// A window edge over either half of a wide character replaces the whole character:
    /// no half is left dangling (the debris of the first defect).
    @Test func writingOverHalfAWideCharacterReplacesAllOfIt() {
        var b = ScreenBuffer(width: 8, height: 2)
        b.put("本番太", x: 0, y: 0)
        b.put("│", x: 1, y: 0)          // over the right half of 本
        b.put("┐", x: 4, y: 0)          // over the left half of 太
        #expect(b.line(0) == " │番┐   ")
        #expect((0..<8).allSatisfy { x in !b.cell(x: x, y: 0).continuation || x == 3 })
        b.put("手須", x: 0, y: 1)
        b.fill(x: 1, y: 1, width: 2, height: 1)  // a window's side over both characters' halves
        #expect(b.line(1) == "        ")
    }

    /// What the locale cannot show at its width becomes an ASCII form or `?` per cell, so
    /// the row keeps its length.
    @Test func framesLimitedToALocaleKeepEveryColumn() {
        var b = ScreenBuffer(width: 12, height: 1)
        b.put("─本番 ●…x", x: 0, y: 0)
        let ascii = b.limited { $0.isASCII ? 1 : -1 }
        #expect(ascii.line(0) == "-???? +>x   ")
        #expect((0..<12).allSatisfy { !ascii.cell(x: $0, y: 0).continuation })
        let utf8 = b.limited { CharacterWidth.of($0) }
        #expect(utf8 == b)
        // A terminal that counts a character one cell narrower than the frame laid it out.
        let narrow = b.limited { CharacterWidth.of($0) == 2 ? 1 : CharacterWidth.of($0) }
        #expect(narrow.line(0) == "─???? ●…x   ")
    }
}
