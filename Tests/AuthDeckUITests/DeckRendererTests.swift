import Testing
import Foundation
import AuthDeckCore
@testable import AuthDeckUI
import AuthDeckLook

/// Screens rendered at fixed sizes and compared with readable snapshot files beside this
/// test. Set AUTHDECK_RECORD_SNAPSHOTS=1 to re-record them, deliberately.
@Suite struct DeckRendererTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    func snapshot(_ name: String, _ buffer: ScreenBuffer) throws {
        let file = Self.snapshots.appendingPathComponent(name + ".txt")
        let text = buffer.text + "\n"
        if ProcessInfo.processInfo.environment["AUTHDECK_RECORD_SNAPSHOTS"] == "1" || !FileManager.default.fileExists(atPath: file.path) {
            try text.write(to: file, atomically: true, encoding: .utf8)
            if ProcessInfo.processInfo.environment["AUTHDECK_RECORD_SNAPSHOTS"] != "1" { Issue.record("recorded a new snapshot \(name); check it in") }
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "\(name) differs from its snapshot:\n\(text)")
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func theDeckMatchesItsSnapshot(width: Int, height: Int) throws {
        let state = DeckTestState.make(width: width, height: height)
        try snapshot("deck-\(width)x\(height)", DeckRenderer.render(state))
    }

    /// Every state some account is in has its count in the header, at any width the deck
    /// draws at (the fixture has all six states); labels when there is room for them.
    @Test(arguments: [80, 100, 120, 160, 240])
    func theHeaderCountsEveryState(width: Int) {
        let s = DeckTestState.make(width: width, height: 40)
        let header = DeckRenderer.render(s).line(0)
        #expect(Set(s.counts.keys) == Set(s.rows.map(\.state.key)))
        for (key, n) in s.counts {
            #expect(header.contains("\(DeckRenderer.Glyphs.unicode.badge(DeckRenderer.sampleState(key))) \(n)"), "\(key) in: \(header)")
        }
        if width >= 200 {
            #expect(header.contains("1 needs sign-in") && header.contains("~/.local/share/authdeck/authdeck.db"), "\(header)")
        }
    }

    /// Issue 31, item 10: the empty deck's first-run hint was cut at 120 and 80 columns, and the
    /// part lost was the way out: "or try `authdeck demo`". It wraps now.
    @Test(arguments: [(80, 24), (120, 40), (60, 15)])
    func theFirstRunHintIsShownWhole(width: Int, height: Int) {
        var s = DeckState(now: DeckTestState.now, storePath: "~/.local/share/authdeck/authdeck.db", keySource: "key file")
        s.configPath = "/home/taro/.config/authdeck/config.toml"
        _ = DeckReducer.reduce(&s, .resize(width: width, height: height))
        _ = DeckReducer.reduce(&s, .loaded(rows: [], providers: [], now: DeckTestState.now))
        let screen = (0..<height).map { DeckRenderer.render(s).line($0) }.joined(separator: " ")
        let words = screen.split(whereSeparator: { $0 == " " || $0 == "│" }).joined(separator: " ")
        #expect(words.contains("or try `authdeck demo`."), "\(width)x\(height): \(screen)")
        // Where the providers go: the config file by its path.
        #expect(words.contains("/home/taro/.config/authdeck/config.toml"), "\(width)x\(height): \(screen)")
    }

    @Test func aLongProviderIdGivesWayToItsAccountCount() {
        var s = DeckTestState.make(width: 120, height: 40)
        s.providers = [DeckProvider(id: "contoso-production", kind: .azuread, accounts: 10_000, worst: nil)]
        let line = DeckRenderer.render(s).text.split(separator: "\n").first { $0.contains("(10000)") }
        #expect(line?.contains("co… (10000) Azure AD") == true, "the row was: \(line ?? "missing")")
    }

    @Test func modalsAndASmallWindowMatchTheirSnapshots() throws {
        var s = DeckTestState.make(width: 80, height: 24)
        _ = DeckReducer.reduce(&s, .key(.char("p")))
        try snapshot("prune-80x24", DeckRenderer.render(s))
        s.modal = .deviceCode(id: "x", userCode: "ABCD-1234", uri: "http://127.0.0.1:8080/devicelogin",
                              expiresAt: DeckTestState.now + .minutes(15), note: nil)
        try snapshot("device-code-80x24", DeckRenderer.render(s))
        _ = DeckReducer.reduce(&s, .resize(width: 50, height: 12))
        let small = DeckRenderer.render(s)
        #expect(small.text.contains("Window too small: 50×12; authdeck needs 60×15."))
    }

    @Test func statesCarryTheirRolesAndBadges() {
        let s = DeckTestState.make(width: 120, height: 40)
        let b = DeckRenderer.render(s)
        let layout = DeckLayout(width: 120, height: 40)
        for (i, row) in s.visibleRows.prefix(layout.visibleRowCount).enumerated() {
            let y = layout.firstRowY + i
            let line = b.line(y)
            #expect(line.contains(DeckRenderer.shortLabel(row.state)), "\(row.id): \(line)")
            // The badge cell of the state column has the state's role (unless selected).
            if row.id != s.selectedRow?.id, let x = (0..<b.width).first(where: { b.cell(x: $0, y: y).role == Role.of(row.state) }) {
                #expect(b.cell(x: x, y: y).role == Role.of(row.state))
            } else if row.id != s.selectedRow?.id {
                Issue.record("no cell with the role of \(row.state.label) on \(row.id)'s line")
            }
        }
        #expect(b.cell(x: 0, y: 0).role == .header)
    }

    @Test func wideNamesAlignByDisplayWidth() {
        let s = DeckTestState.make(width: 120, height: 40)
        let b = DeckRenderer.render(s)
        let lines = (0..<b.height).map { b.line($0) }
        func column(_ line: String, _ word: String) -> Int {
            CharacterWidth.of(line.components(separatedBy: word)[0])
        }
        let taro = lines.first { $0.contains("本番 太郎") }!, jiro = lines.first { $0.contains("手須戸 二郎") }!
        let header = lines.first { $0.contains("EXPIRES") }!
        #expect(column(taro, "signed in") - 2 == column(header, "STATE"))
        #expect(column(jiro, "expiring") - 2 == column(header, "STATE"))
    }

    @Test func hostileNamesAreInert() {
        let hostile = StoredAccount(account: Account(id: "gl/evil0001", providerId: "gl", subject: "evil", username: "evil@example.jp",
                                                     displayName: "\u{1b}]0;owned\u{07}\u{1b}[2J", createdAt: DeckTestState.now,
                                                     lastSignInAt: DeckTestState.now))
        let s = DeckTestState.make(width: 120, height: 40, extra: [hostile])
        let text = DeckRenderer.render(s).text
        #expect(!text.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 })
        #expect(text.contains("␛]0;owned␇␛[2J"))
    }

    @Test func asciiGlyphsForNonUTF8Locales() {
        let b = DeckRenderer.render(DeckTestState.make(width: 120, height: 40), glyphs: .plain)
        #expect(!b.text.contains("─") && !b.text.contains("●") && b.text.contains("+ signed in"))
    }

    /// A long key source at 60 columns is cut with `…` like every other text (it was cut bare:
    /// "key file /tmp/authdeck", found by a new user's trial).
    @Test func aNarrowHeaderCutsTheStoreLabelWithAnEllipsis() {
        var s = DeckTestState.make(width: 60, height: 15)
        s.keySource = "key file /tmp/authdeck-demo-24707/key"
        s.storePath = "/tmp/authdeck-demo-24707/authdeck.db"
        let header = DeckRenderer.render(s).line(0)
        #expect(header.contains("key file") && header.contains("…"), "\(header)")
    }
}
