import Testing
@testable import AuthDeckUI
import AuthDeckCore

/// `LANG=C`: every glyph with a meaning has an ASCII form of its own (issue 31, item 12).
struct AsciiFormTests {
    /// A terminal that shows only ASCII (width −1 for anything else), as under `LANG=C`.
    static func asciiOnly(_ ch: Character) -> Int { ch.unicodeScalars.allSatisfy { $0.value < 0x80 } ? 1 : -1 }

    @Test func eachMeaningHasItsOwnForm() {
        let meanings: [Character] = ["●", "◐", "○", "▲", "✕", "■", "…", "↻", "▸", "█", "×", "⇄"]
        let forms = meanings.map(AsciiForm.of)
        #expect(Set(forms).count == meanings.count, "\(zip(meanings, forms).map { "\($0)→\($1)" })")
        #expect(!forms.contains("~"), "~ reads as a home directory")
        #expect(Set(forms).isDisjoint(with: ["-", "|"]), "no badge reads as a border")
    }

    @Test func proseEndsWithThreeDotsAndACutKeepsOneCell() {
        var b = ScreenBuffer(width: 40, height: 2)
        _ = b.put("Waiting…", x: 0, y: 0)
        _ = b.put("│", x: 39, y: 0)
        _ = b.put("● signe… in 59m", x: 0, y: 1)
        let shown = b.limited(to: Self.asciiOnly).text.split(separator: "\n").map(String.init)
        #expect(shown[0].hasPrefix("Waiting... "), "\(shown[0])")
        #expect(shown[0].hasSuffix("|"))
        #expect(shown[1].hasPrefix("+ signe> in 59m"), "\(shown[1])")
    }

    @Test func aPathCutAtItsStartIsNotAHomeDirectory() {
        var b = ScreenBuffer(width: 20, height: 1)
        _ = b.put("…769/authdeck.db", x: 0, y: 0)
        #expect(b.limited(to: Self.asciiOnly).text.hasPrefix(">769/authdeck.db"))
    }

    @Test func thePlainBadgesAreTheAsciiForms() {
        let g = DeckRenderer.Glyphs.plain
        let badges = [AccountState.signedIn, .expiringSoon, .expired(renewable: false), .needsSignIn(reason: ""), .stale(reason: .signInNeverCompleted), .failed(reason: "")].map(g.badge)
        #expect(badges == ["+", "%", "o", "!", "X", "#"])
    }
}
