import Testing
import AuthDeckCore
import AuthDeckTestSupport
import AuthDeckConfig
@testable import AuthDeckUI

/// The deck's rules for what text goes where: columns sized from their contents, cut text
/// marked, windows that wrap and page, one clock, messages that name the account.
@Suite struct DeckScreenRulesTests {
    func lines(_ s: DeckState) -> [String] { DeckRenderer.render(s).text.components(separatedBy: "\n") }

    /// At 80 columns the usernames are whole (the time columns give up their blank space, LAST
    /// USED gives way); at 120 the headers are whole; at 200 the realm is whole.
    @Test(arguments: [(80, 24), (120, 40), (200, 50)])
    func columnsAreSizedFromTheirContents(width: Int, height: Int) {
        let s = DeckTestState.make(width: width, height: height)
        let screen = lines(s)
        let header = screen[2]
        for title in ["PROVIDER", "NAME", "USER", "STATE", "EXPIRES"] + (width > 80 ? ["LAST USED"] : []) {
            #expect(header.contains(title), "\(title) in \(header)")
        }
        #expect(header.contains("EXPIRES▾"), "the sort column is marked: \(header)")
        for user in ["hanako@contoso.com", "taro@dev.contoso.com", "abandoned@example.jp"] {
            #expect(screen.contains { $0.contains(user) }, "\(user) whole at \(width)")
        }
        if width >= 200 { #expect(screen.contains { $0.contains(DeckFixture.prodTenant) }, "the realm whole") }
    }

    @Test func columnsShareAShortWidthAndCutWithAnEllipsis() {
        let cols = TableColumns([.init("A", content: 30), .init("B", content: 4), .init("LONGTITLE", content: 2)], width: 30)
        #expect(cols.columns.map(\.width) == [15, 5, 10])
        #expect(TextFit.cut("taro@contoso.com", 10) == "taro@cont…")
        #expect(TextFit.cut("本番 太郎", 6) == "本番 …")
        #expect(TextFit.wrap("one two three four", 9, indent: 2) == ["one two", "  three", "  four"])
    }

    /// The help window pages at 60×15 and always says how to close it; every key, `q quit`
    /// among them, is reachable.
    @Test func helpPagesAndAlwaysShowsHowToClose() {
        var s = DeckTestState.make(width: 60, height: 15)
        _ = DeckReducer.reduce(&s, .key(.char("?")))
        var seen = Set<String>()
        for _ in 0..<40 {
            let text = lines(s).joined(separator: "\n")
            // How to move and how to close; ↓ moves a line, so it is "scroll", not "page" (the trial).
            #expect(text.contains("↓↑ PgDn PgUp scroll (") && text.contains("· other keys close"), "\(text)")
            for line in DeckRenderer.helpLines(s) where text.contains(line) { seen.insert(line) }
            _ = DeckReducer.reduce(&s, .key(.down))
        }
        #expect(seen.count == DeckRenderer.helpLines(s).count)
        #expect(seen.contains { $0.hasPrefix("q ") && $0.hasSuffix("quit") })
        _ = DeckReducer.reduce(&s, .key(.char("x")))
        #expect(s.modal == nil)
    }

    /// The detail pane counts down with the table, from the deck's clock, not the instant
    /// the store was read.
    @Test func theDetailPaneTicksWithTheTable() {
        var s = DeckTestState.make(width: 120, height: 40)
        s.selectedID = "work/0000a001"
        _ = DeckReducer.reduce(&s, .tick(DeckTestState.now + .seconds(7)))
        let screen = lines(s).joined(separator: "\n")
        #expect(screen.contains("in 1h 59m 53s") || screen.contains("in 1h 59m"), "\(screen)")
        let detail = lines(s).filter { $0.contains("token ") }
        #expect(detail.allSatisfy { !$0.contains("in 2h 00m") }, "\(detail)")
    }

    /// Messages name the account as provider/username, or by id when another account of
    /// the provider has the same username.
    @Test func messagesNameTheAccount() {
        var s = DeckTestState.make(width: 120, height: 40)
        _ = DeckReducer.reduce(&s, .renewFinished(id: "sp/0000a012", failure: nil))
        DeckTestState.rowsArrive(&s)
        #expect(s.message == "Renewed sp/taro@contoso.com.")
        _ = DeckReducer.reduce(&s, .renewFinished(id: "work/0000a001", failure: nil))
        DeckTestState.rowsArrive(&s)
        #expect(s.message == "Renewed work/0000a001.", "work has two taro@contoso.com accounts")
        _ = DeckReducer.reduce(&s, .loggedOut(id: "work/0000a002", failure: nil))
        DeckTestState.rowsArrive(&s)
        #expect(s.message == "Signed out work/jiro@contoso.com.")
        _ = DeckReducer.reduce(&s, .signInFinished(id: "new:gl", failure: nil, account: "gl/x@example.jp"))
        DeckTestState.rowsArrive(&s)
        #expect(s.message == "Added gl/x@example.jp.")
        s.selectedID = "work/0000a002"
        _ = DeckReducer.reduce(&s, .key(.char("d")))
        #expect(lines(s).contains { $0.contains("Sign out work/jiro@contoso.com and delete its credentials?") })
    }

    @Test func eventsReadAsSentences() {
        func say(_ kind: DeckEvent.Kind, _ detail: String) -> String { EventSentence.of(DeckEvent(at: DeckTestState.now, kind: kind, detail: detail)) }
        // What the class asks is not said again when the remedy says it (issue 31, item 15).
        #expect(say(.refreshFailed, "needsInteraction invalid_grant: sign in again with authdeck login work")
                == "renewal failed: sign in again with authdeck login work (invalid_grant)")
        #expect(say(.refreshFailed, "needsInteraction mfa_required: the provider asks for a second factor")
                == "renewal failed: sign in again — the provider asks for a second factor (mfa_required)")
        #expect(say(.logout, "revoked at the server; credentials deleted") == "signed out: revoked at the server; credentials deleted")
        #expect(say(.restored, "restored from quarantine") == "restored from quarantine")
        #expect(say(.refreshed, "renewed") == "renewed")
        #expect(say(.refreshed, "renewed; refresh token rotated to generation 3") == "renewed: refresh token rotated to generation 3")
    }

    /// Rows above or below the window are counted on the row before the detail pane.
    @Test func scrollHintsCountTheRowsOutOfTheWindow() {
        var s = DeckTestState.make(width: 80, height: 20)
        let visible = DeckLayout(width: 80, height: 20).visibleRowCount
        let text = lines(s).joined(separator: "\n")
        #expect(text.contains("↓ \(s.visibleRows.count - visible) more") && !text.contains("↑"), "\(text)")
        _ = DeckReducer.reduce(&s, .key(.end))
        // The hint row under the table (the detail pane counts its own lines with "↓ N more").
        let hints = lines(s)[DeckLayout(width: 80, height: 20).detailY - 1]
        #expect(hints.contains("↑ \(s.visibleRows.count - visible) more") && !hints.contains("↓ "), "\(hints)")
    }

    /// Inside the clock-skew margin a credential reads "renew due" with its real time left,
    /// never "expired" beside "in 18s".
    @Test func aCredentialInsideTheSkewMarginIsRenewDue() {
        var s = DeckTestState.make(width: 120, height: 40)
        guard let i = s.rows.firstIndex(where: { $0.id == "work/0000a002" }) else { Issue.record("no jiro"); return }
        s.rows[i].state = .renewDue
        s.rows[i].expiry = DeckTestState.now + .seconds(18)
        let row = lines(s).first { $0.contains("jiro@contoso.com") } ?? ""
        #expect(row.contains("renew due") && row.contains("in 18s") && !row.contains("expired"), "\(row)")
    }

    /// The open deck renews a credential inside the clock-skew margin at once (SharePoint
    /// cookies included), instead of leaving it "expired" until someone presses R.
    @Test func theDeckRenewsACredentialInsideTheSkewMarginAtOnce() throws {
        let config = try ConfigLoader.parse(DeckFixture.configTOML, path: "config.toml")
        let now = DeckTestState.now
        // jiro's token (six minutes from the fixture's instant) has 18 s left now.
        let fixture = DeckFixture(now: now - .minutes(6) + .seconds(18))
        let assessment = DeckAssessment(accounts: fixture.accounts, providers: config.knownProviders, statePolicy: config.statePolicy,
                                        pruneSettings: config.pruneSettings, now: now)
        let (rows, providers) = DeckSnapshot.make(assessment, providers: config.providers, skew: config.statePolicy.clockSkew) { _ in [] }
        let jiro = try #require(rows.first { $0.id == "work/0000a002" })
        #expect(jiro.state == .renewDue && jiro.renewAt == now)
        var s = DeckState(now: now, storePath: "db", keySource: "key file")
        _ = DeckReducer.reduce(&s, .loaded(rows: rows, providers: providers, now: now))
        let effects = DeckReducer.reduce(&s, .tick(now + .seconds(1)))
        #expect(effects.contains { if case .renewAhead(let ids) = $0 { return ids.contains("work/0000a002") } else { return false } })
    }
}
