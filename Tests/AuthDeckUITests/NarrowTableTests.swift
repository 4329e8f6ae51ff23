import Testing
@testable import AuthDeckUI
import AuthDeckCore

/// At the smallest deck (60×15) the columns a person came for — state and countdown — win
/// the width; LAST USED gives way (issue 31, item 9).
struct NarrowTableTests {
    @Test(arguments: [60, 72, 80])
    func stateAndCountdownAreWholeAtNarrowWidths(width: Int) throws {
        let s = DeckTestState.make(width: width, height: 15)
        let lines = DeckRenderer.render(s).text.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.contains("STATE") && $0.contains("EXPIRES") })
        let shown = lines[(header + 1)...].prefix { !$0.contains("more") && !$0.contains("──") }
        #expect(shown.count >= 4)
        for (row, line) in zip(s.visibleRows, shown) {
            let state = DeckRenderer.stateText(row, s, .unicode).0, expiry = DeckRenderer.expiryText(row, s.now)
            #expect(line.contains(state) && line.contains(expiry), "\(state) / \(expiry) cut at \(width) columns:\n\(lines.joined(separator: "\n"))")
        }
    }

    /// With room, LAST USED is there as before.
    @Test func lastUsedIsShownWhenThereIsRoom() {
        let text = DeckRenderer.render(DeckTestState.make(width: 120, height: 40)).text
        #expect(text.contains("LAST USED"))
    }
}
