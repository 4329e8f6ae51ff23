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

    /// Issue 39, item 2: the demo's columns at 120 columns (93 cells beside the providers pane)
    /// once EXPIRES holds "expired 17m 19s ago": REALM is cut to what is left, not dropped,
    /// and every other column stays whole.
    @Test func realmIsCutNotDroppedBesideALongCountdown() {
        let columns = TableColumns([
            .init("PROVIDER", content: 11, cap: 20, priority: 3), .init("NAME", content: 12, cap: 32, priority: 5),
            .init("USER", content: 18, cap: 40, priority: 2), .init("REALM", content: 36, cap: 40, optional: true, priority: 6),
            .init("STATE", content: 11, priority: 0), .init("EXPIRES", content: 19, priority: 1),
            .init("LAST USED", content: 5, optional: true, priority: 4),
        ], width: 93)
        #expect(columns.width(of: "REALM") == 7, "\(columns.columns)")
        for (key, whole) in [("PROVIDER", 12), ("NAME", 13), ("USER", 19), ("STATE", 12), ("EXPIRES", 20), ("LAST USED", 10)] {
            #expect(columns.width(of: key) == whole, "\(key): \(columns.columns)")
        }
    }
}
