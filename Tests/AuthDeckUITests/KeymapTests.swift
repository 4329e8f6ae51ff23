import Testing
import Foundation
import AuthDeckCore
@testable import AuthDeckUI
import AuthDeckLook

/// The key table is the dispatch table: every key in it does something, a user's key works in
/// the deck and in its windows, and the help bar, the `?` window and the man page read it.
@Suite struct KeymapTests {
    /// The fixture deck with the selection in the middle, so every move has somewhere to go.
    func deck(_ keymap: Keymap.Resolved = .standard) -> DeckState {
        var s = DeckTestState.make(width: 120, height: 40)
        s.keymap = keymap
        s.selectedID = s.visibleRows[s.visibleRows.count / 2].id
        return s
    }

    /// One of each window, as the deck opens them.
    func windows(_ keymap: Keymap.Resolved = .standard) -> [DeckState] {
        let base = deck(keymap)
        let id = base.selectedRow!.id
        let modals: [DeckState.Modal] = [
            .prune([DeckState.StaleItem(id: id, username: "u", reason: "r")]),
            .confirmLogout(id: id, username: "u", offersClearRegistration: true),
            .addAccount(providers: base.providers.map(\.id), selected: 1),
            .deviceCode(id: id, userCode: "ABCD", uri: "https://x.test/device", expiresAt: DeckTestState.now + .seconds(600), note: nil),
            .browser(id: id, url: "https://x.test/authorize"),
        ]
        var help = DeckTestState.make(width: 60, height: 15)  // short enough for the help to page
        help.keymap = keymap
        _ = DeckReducer.reduce(&help, .key(.char("?")))
        help.helpOffset = 2
        return [help] + modals.map { m in
            var s = base
            s.modal = m
            return s
        }
    }

    /// Whether pressing `key` changes the state or asks for work.
    func acts(_ state: DeckState, _ key: Key) -> Bool {
        var s = state
        return !DeckReducer.reduce(&s, .key(key)).isEmpty || s != state
    }

    @Test func everyKeyOfTheTableDispatchesToACommandTheReducerActsOn() {
        let keymap = Keymap.Resolved.standard
        for binding in Keymap.bindings {
            for press in binding.presses {
                #expect(keymap.command(for: press.key, in: .deck) == press.command, "\(binding.action): \(press.key)")
                #expect(acts(deck(), press.key), "\(binding.action): \(press.key) does nothing in the deck")
            }
        }
        for press in Keymap.windowPresses {
            #expect(keymap.command(for: press.key, in: .window) == press.command, "\(press.key)")
            #expect(windows().contains { acts($0, press.key) }, "\(press.key) (\(press.command)) does nothing in any window")
        }
        // The agent window's keys answer the host asking (issue 43).
        for press in Keymap.agentPresses {
            #expect(keymap.command(for: press.key, in: .agentWindow) == press.command, "\(press.key)")
            var s = deck()
            _ = DeckReducer.reduce(&s, .agentAsked(DeckAgentAsk(ticket: 1, host: "h", hostClaimed: false, accountId: "a", account: "p/u",
                                                                audience: "", client: "token", deadline: DeckTestState.now + .seconds(9))))
            #expect(acts(s, press.key), "\(press.key) (\(press.command)) does nothing in the agent window")
        }
        // No command without a key (a case the reducer switches on that nothing can reach).
        let reachable = Set(Keymap.bindings.flatMap(\.presses).map(\.command) + Keymap.windowPresses.map(\.command)
                            + Keymap.agentPresses.map(\.command))
        #expect(reachable == Set(Keymap.Command.allCases))
        // Only keys with no meaning at all are `nil`: they do nothing in the deck.
        #expect(keymap.command(for: .char("z"), in: .deck) == nil && !acts(deck(), .char("z")))
    }

    /// `[keys] quit = "x"`, `renew = "e"`: the user's key is an alias, in the deck and in every
    /// window where the command means something (x closed no window before: the runtime
    /// remapped keys only outside them); the default keys keep working; a filter is text.
    @Test func aUserKeyWorksInTheDeckAndInEveryWindowBesideTheDefault() {
        let keymap = Keymap.Resolved(overrides: ["quit": .char("x"), "renew": .char("e")])
        var s = deck(keymap)
        let id = s.selectedRow!.id
        #expect(DeckReducer.reduce(&s, .key(.char("e"))) == [.renew(ids: [id], interactiveIfNeeded: true)])
        s = deck(keymap)
        #expect(DeckReducer.reduce(&s, .key(.enter)) == [.renew(ids: [id], interactiveIfNeeded: true)], "Enter still renews")
        for quit in [Key.char("x"), .char("q")] {
            s = deck(keymap)
            #expect(DeckReducer.reduce(&s, .key(quit)) == [.quit] && s.quitting, "\(quit) quits")
            // Every window q closed, x closes too, doing nothing else; in a sign-in window
            // either quits, as the help bar says, stopping the sign-in on the way.
            for window in windows(keymap) {
                var w = window
                let effects = DeckReducer.reduce(&w, .key(quit))
                switch window.modal {
                case .deviceCode(let id, _, _, _, _)?, .browser(let id, _)?:
                    #expect(w.quitting && effects == [.cancelSignIn(id: id), .quit], "\(quit) in \(String(describing: window.modal))")
                default: #expect(w.modal == nil && effects.isEmpty && !w.quitting, "\(quit) closes \(String(describing: window.modal))")
                }
            }
        }
        // Typing a filter, x is a letter.
        s = deck(keymap)
        _ = DeckReducer.reduce(&s, .key(.char("/")))
        #expect(DeckReducer.reduce(&s, .key(.char("x"))) == [] && s.filter == "x" && !s.quitting)
        // A window's own answers win over a user's key: quit on y still prunes in the prune window.
        let onY = Keymap.Resolved(overrides: ["quit": .char("y")])
        var prune = windows(onY)[1]
        #expect(DeckReducer.reduce(&prune, .key(.char("y"))) == [.prune(ids: [id])])
    }

    /// At 60 columns the bar cannot hold every key: `?` and quit stay (a new user at 60×15 saw
    /// neither, so nothing on screen said how to leave), the others give way from the end.
    @Test func aNarrowHelpBarKeepsHelpAndQuit() {
        var s = DeckTestState.make(width: 60, height: 15)
        s.keymap = Keymap.Resolved(overrides: ["quit": .char("x")])
        let bar = DeckRenderer.render(s).line(14)
        #expect(bar.contains("? help") && bar.contains("x/q quit"), "\(bar)")
        #expect(bar.hasPrefix(" Enter/r re-sign-in"), "the rest in the table's order: \(bar)")
        #expect(!bar.contains("p prune"), "what does not fit gives way: \(bar)")
    }

    /// The help bar, the `?` window and the man page's KEYS section are written from
    /// `Keymap.bindings`, the user's keys shown first. `AUTHDECK_WRITE_MAN=1` rewrites the
    /// man page's section from the table (then review the diff).
    @Test func theHelpBarTheHelpWindowAndTheManPageReadTheTable() throws {
        let keymap = Keymap.Resolved(overrides: ["renew": .char("e"), "undo": .char("U")])
        var s = DeckTestState.make(width: 200, height: 40)
        s.keymap = keymap
        let bar = DeckRenderer.render(s).line(39)
        let shown = Keymap.bindings.filter(\.inBar).map { "\(keymap.label(of: $0)) \($0.short)" }
        #expect(bar.hasPrefix(" " + shown.joined(separator: "  ") + "  "), "\(bar)")
        #expect(bar.contains("e/Enter/r re-sign-in"))
        let help = DeckRenderer.helpLines(s)
        #expect(help.count == Keymap.bindings.count, "one line each at 200 columns")
        for binding in Keymap.bindings {
            #expect(help.contains { $0.hasPrefix(keymap.label(of: binding) + " ") && $0.hasSuffix(" " + binding.help) }, "\(binding.action) in the help window")
        }
        #expect(help.contains { $0.hasPrefix("U/u ") }, "the user's key in the help window")

        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../man/authdeck.1").standardized.path
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(page.range(of: "\n.SH KEYS\n")).lowerBound
        let end = try #require(page.range(of: "\n.SH ", range: page.index(after: start)..<page.endIndex)).lowerBound
        let section = String(page[page.index(after: start)...end])
        if ProcessInfo.processInfo.environment["AUTHDECK_WRITE_MAN"] == "1", section != Keymap.manualSection {
            try (String(page[...start]) + Keymap.manualSection + String(page[page.index(after: end)...])).write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(section == Keymap.manualSection, "man/authdeck.1's KEYS differ from Keymap (AUTHDECK_WRITE_MAN=1 rewrites them)")
    }
}
