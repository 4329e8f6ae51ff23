import Testing
import AuthDeckCore
import AuthDeckTestSupport
@testable import AuthDeckUI

/// Issue 39, item 6: "a cut value ends with `…`" — nothing the deck means to show may vanish
/// without a mark: the detail pane's last row is the status line's, so a detail line drawn
/// there was hidden (a token line at 80×24), and a countdown wrapped at any space put its
/// seconds on a line of their own (60×15).
@Suite struct CutMarkTests {
    func lines(_ s: DeckState) -> [String] { DeckRenderer.render(s).text.components(separatedBy: "\n") }

    /// Every detail line is on screen, or the pane's last row says how many are not.
    @Test(arguments: [(80, 24), (120, 40), (60, 15)])
    func noDetailLineIsHiddenWithoutAMark(width: Int, height: Int) throws {
        for id in ["work/0000a005", "work/0000a001", "sp/0000a012", "work/0000a013"] {
            var s = DeckTestState.make(width: width, height: height)
            s.selectedID = id
            let screen = lines(s)
            let layout = DeckLayout(width: width, height: height)
            let pane = screen[(layout.detailY + 1)..<layout.statusY].map { $0.trimmingCharacters(in: .whitespaces) }
            let row = try #require(s.selectedRow)
            let detail = row.detail(now: s.now)
            let shown = detail.filter { line in pane.contains { line.hasPrefix($0.replacingOccurrences(of: "…", with: "")) && !$0.isEmpty } || screen.joined().contains(line) }
            if shown.count < detail.count {
                #expect(pane.last?.hasPrefix("↓ ") == true && pane.last?.hasSuffix(" more") == true,
                        "\(id) at \(width)×\(height): \(detail.count - shown.count) detail lines hidden with no mark:\n\(screen.joined(separator: "\n"))")
            }
        }
    }

    /// At 80×24 the needs-sign-in account's five detail lines do not fit four rows: the last
    /// row counts the rest (its last error was drawn under the status line, unseen).
    @Test func theLastRowCountsWhatDoesNotFit() {
        var s = DeckTestState.make(width: 80, height: 24)
        s.selectedID = "work/0000a005"
        let screen = lines(s)
        let layout = DeckLayout(width: 80, height: 24)
        let last = screen[layout.statusY - 1].trimmingCharacters(in: .whitespaces)
        #expect(last.hasPrefix("↓ ") && last.hasSuffix(" more"), "\(screen.joined(separator: "\n"))")
        #expect(screen[layout.helpY].contains("re-sign-in"), "the key hints keep their line")
    }

    /// A countdown stays whole on one line when its line wraps (60×15).
    @Test func aCountdownIsNotBrokenAcrossLines() {
        var s = DeckTestState.make(width: 60, height: 15)
        s.selectedID = "work/0000a013"
        let screen = lines(s)
        #expect(screen.contains { $0.contains("expired 119d 00h ago (not usable)") }, "\(screen.joined(separator: "\n"))")
        #expect(DeckRenderer.detailLine("token a b c d e f g h — in 5m 59s", 20) == ["token a b c d e f g", "  h — in 5m 59s"])
    }

    /// A message longer than the status line is cut there with `…`, on its one line, at 120×40,
    /// 80×24 and 60×15, a spinner before it or not; the key hints keep their line (issue 39,
    /// item 6: it wrapped over them).
    @Test(arguments: [(120, 40), (80, 24), (60, 15)])
    func aLongMessageIsCutOnItsOneLine(width: Int, height: Int) {
        let message = "work/revoked@contoso.com: the grant expired or was revoked (AADSTS70008) — sign in again: `authdeck login work --username revoked@contoso.com`"
        for busy in [false, true] {
            var s = DeckTestState.make(width: width, height: height)
            s.message = message
            if busy { s.busy["work/0000a010"] = "renewing" }
            let screen = lines(s)
            let status = screen[height - 2].trimmingCharacters(in: .whitespaces), hints = screen[height - 1]
            #expect(status.hasSuffix("…") && status.contains("work/revoked@contoso.com: the grant"), "\(status)")
            #expect(hints.contains("? help") && hints.contains("q quit"), "\(hints)")
        }
    }
}
