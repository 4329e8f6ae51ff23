import Testing
import AuthDeckCore
import AuthDeckUI
import AuthDeckLook

/// The update function: state and effects compared with `==`, at a fixed instant.
@Suite struct DeckReducerTests {
    func press(_ state: inout DeckState, _ keys: Key...) -> [DeckEffect] {
        keys.flatMap { DeckReducer.reduce(&state, .key($0)) }
    }

    @Test func movingSelectsTheNextVisibleRow() {
        var s = DeckTestState.make(width: 120, height: 40)
        let order = s.visibleRows.map(\.id)
        #expect(s.selectedID == order[0])
        #expect(press(&s, .down, .char("j")) == [])
        #expect(s.selectedID == order[2])
        _ = press(&s, .up)
        #expect(s.selectedID == order[1])
        _ = press(&s, .end)
        #expect(s.selectedID == order.last)
    }

    @Test func enterRenewsTheSelectedAccountOnceAndMarksItBusy() {
        var s = DeckTestState.make(width: 120, height: 40)
        let id = s.selectedRow!.id
        #expect(press(&s, .enter) == [.renew(ids: [id], interactiveIfNeeded: true)])
        #expect(s.busy[id] == "renewing")
        #expect(press(&s, .char("r")) == [], "no second renewal while one runs")
        #expect(DeckReducer.reduce(&s, .renewFinished(id: id, failure: nil)) == [.refreshRows(ids: [id])],
                "a renewal rereads its own row, not the whole store")
        DeckTestState.rowsArrive(&s)
        #expect(s.busy[id] == nil && s.message?.hasPrefix("Renewed") == true)
    }

    /// A renewal's result replaces its row (and its provider's tally) in place; a row asked for
    /// and not read again is gone; the earliest time-driven change is kept for the reload.
    /// Issue 31, item 14: after a sign-out the selection jumped to the top; the row that takes
    /// the gone row's place is selected instead (the last one when it was the last).
    @Test func aRowThatGoesLeavesTheSelectionInItsPlace() {
        var s = DeckTestState.make(width: 120, height: 40)
        let visible = s.visibleRows
        #expect(visible.count > 4)
        s.selectedID = visible[3].id
        let rows = s.rows.filter { $0.id != visible[3].id }
        _ = DeckReducer.reduce(&s, .loaded(rows: rows, providers: s.providers, now: DeckTestState.now))
        #expect(s.selectedID == visible[4].id, "the next row, not the first")
        let last = s.visibleRows.last!.id
        s.selectedID = last
        _ = DeckReducer.reduce(&s, .loaded(rows: s.rows.filter { $0.id != last }, providers: s.providers, now: DeckTestState.now))
        #expect(s.selectedID == s.visibleRows.last?.id)
    }

    /// Issue 39, item 3: the deck opens on its top row and keeps the top row selected while
    /// nothing is chosen — the top row renewed and moved down the expiry sort took the
    /// selection with it (the demo opened on its seventh row); once a row is chosen it stays.
    @Test func theTopRowStaysSelectedUntilARowIsChosen() {
        var s = DeckTestState.make(width: 120, height: 40)
        let top = s.visibleRows[0]
        #expect(s.selectedRow?.id == top.id)
        var renewed = top
        renewed.expiry = DeckTestState.now + .days(400)
        _ = DeckReducer.reduce(&s, .rowsUpdated(ids: [top.id], rows: [renewed], changesAt: nil))
        #expect(s.visibleRows[0].id != top.id, "the renewal moved the row down")
        #expect(s.selectedRow?.id == s.visibleRows[0].id, "the new top row is selected")
        _ = DeckReducer.reduce(&s, .key(.down))
        let chosen = s.selectedRow!.id
        var moved = s.rows.first { $0.id == chosen }!
        moved.expiry = DeckTestState.now + .days(500)
        _ = DeckReducer.reduce(&s, .rowsUpdated(ids: [chosen], rows: [moved], changesAt: nil))
        #expect(s.selectedRow?.id == chosen, "a chosen row keeps the selection wherever it goes")
    }

    @Test func updatedRowsReplaceTheirsAndTheProvidersTally() {
        var s = DeckTestState.make(width: 120, height: 40)
        let before = s.rows
        let expired = before.first { if case .expired = $0.state { return true } else { return false } }!
        var renewed = expired
        renewed.state = .signedIn
        let gone = before.first { $0.id != expired.id && $0.providerId != expired.providerId }!
        let providerBefore = s.providers.first { $0.id == gone.providerId }!
        let at = s.now + .minutes(5)
        #expect(DeckReducer.reduce(&s, .rowsUpdated(ids: [expired.id, gone.id], rows: [renewed], changesAt: at)) == [])
        #expect(s.rows.count == before.count - 1)
        #expect(s.rows.first { $0.id == expired.id }?.state == .signedIn)
        #expect(!s.rows.contains { $0.id == gone.id })
        #expect(s.providers.first { $0.id == gone.providerId }?.accounts == providerBefore.accounts - 1)
        #expect(s.rows.filter { $0.id != expired.id } == before.filter { $0.id != expired.id && $0.id != gone.id }, "other rows untouched")
        #expect(s.reloadAt == at)
        // The store is read again when that instant comes, not before.
        #expect(!DeckReducer.reduce(&s, .tick(at - .seconds(1))).contains(.reload))
        #expect(DeckReducer.reduce(&s, .tick(at)).contains(.reload))
        #expect(s.reloadAt == nil && !DeckReducer.reduce(&s, .tick(at + .seconds(1))).contains(.reload), "once")
    }

    @Test func renewAllTakesOnlyWhatCanRenewSilently() {
        var s = DeckTestState.make(width: 120, height: 40)
        let effects = press(&s, .char("R"))
        // expiring (a002), expired with a refresh token (a003, a011); not the Facebook one (no RT).
        #expect(effects == [.renew(ids: ["work/0000a002", "work/0000a003", "work/0000a011"].sorted(), interactiveIfNeeded: false)]
                || effects.first.map { if case .renew(let ids, false) = $0 { return Set(ids) == ["work/0000a002", "work/0000a003", "work/0000a011"] } else { return false } } == true)
    }

    /// The deck renews due rows by itself, never twice at once, and not before the date the
    /// renewal pacing gave with the last result (`RenewalPacingTests` checks those dates).
    @Test func theOpenDeckRenewsAheadOfExpiryByItselfAndWaitsForThePacing() {
        var s = DeckTestState.make(width: 120, height: 40)
        let now = DeckTestState.now
        let id = s.rows[0].id
        for i in s.rows.indices { s.rows[i].renewAt = nil }
        s.rows[0].renewAt = now + .seconds(2)
        #expect(DeckReducer.reduce(&s, .tick(now + .seconds(1))) == [], "not due yet")
        #expect(DeckReducer.reduce(&s, .tick(now + .seconds(2))) == [.renewAhead(ids: [id])])
        #expect(s.busy[id] == "renewing")
        #expect(s.message == "Renewing \(s.accountName(id)) before it expires…")
        #expect(DeckReducer.reduce(&s, .tick(now + .seconds(3))) == [], "not twice while it runs")
        _ = DeckReducer.reduce(&s, .renewFinished(id: id, failure: "network down", retryAt: now + .seconds(8)))
        #expect(s.busy[id] == nil)
        #expect(DeckReducer.reduce(&s, .tick(now + .seconds(7))) == [], "not before the back-off's date")
        #expect(DeckReducer.reduce(&s, .tick(now + .seconds(8))) == [.renewAhead(ids: [id])])
        _ = DeckReducer.reduce(&s, .renewFinished(id: id, failure: nil, retryAt: now + .seconds(38)))
        #expect(DeckReducer.reduce(&s, .tick(now + .seconds(37))) == [], "still due after a success: not before its date")
        #expect(DeckReducer.reduce(&s, .tick(now + .seconds(38))) == [.renewAhead(ids: [id])])
        _ = DeckReducer.reduce(&s, .renewFinished(id: id, failure: nil, retryAt: nil))
        #expect(DeckReducer.reduce(&s, .tick(now + .seconds(39))) == [.renewAhead(ids: [id])], "no date: at once")
    }

    /// Trial leftovers of issue 31: Tab where no providers pane fits says so; `d` on an account
    /// that holds nothing does not offer a sign-out; a message goes after 30 s.
    @Test func tabAtEightyColumnsSaysWhyAndDOnNothingOffersNoSignOut() {
        var narrow = DeckTestState.make(width: 80, height: 24)
        #expect(press(&narrow, .tab) == [])
        #expect(narrow.pane == .accounts)
        #expect(narrow.message == "No providers pane below 100 columns; / filters by provider.")
        var wide = DeckTestState.make(width: 120, height: 40)
        _ = press(&wide, .tab)
        #expect(wide.pane == .providers)

        var s = DeckTestState.make(width: 120, height: 40)
        let empty = s.rows.first { $0.holdsNothing }!
        s.selectedID = empty.id
        #expect(press(&s, .char("d")) == [])
        #expect(s.modal == nil)
        #expect(s.message?.hasPrefix("\(s.accountName(empty.id)) holds no credentials to sign out; Enter signs it in") == true)
        s.selectedID = s.rows.first { !$0.holdsNothing }!.id
        _ = press(&s, .char("d"))
        #expect(s.modal != nil, "an account with credentials is asked about")
    }

    @Test func aMessageGoesAfterThirtySeconds() {
        var s = DeckTestState.make(width: 120, height: 40)
        let now = DeckTestState.now
        for i in s.rows.indices { s.rows[i].renewAt = nil }
        _ = press(&s, .char("s"))
        #expect(s.message != nil)
        _ = DeckReducer.reduce(&s, .tick(now + .seconds(29)))
        #expect(s.message != nil)
        _ = DeckReducer.reduce(&s, .tick(now + .seconds(30)))
        #expect(s.message == nil, "\"Sorted by …\" half a minute later is not news")
    }

    @Test func filterNarrowsAndEscapeClears() {
        var s = DeckTestState.make(width: 120, height: 40)
        _ = press(&s, .char("/"), .char("手"), .char("須"))
        #expect(s.editingFilter && s.visibleRows.map(\.id) == ["work/0000a002"])
        _ = press(&s, .enter)
        #expect(!s.editingFilter && s.filter == "手須")
        _ = press(&s, .char("/"), .escape)
        #expect(s.filter.isEmpty && s.visibleRows.count == 14)
    }

    @Test func pruneShowsTheStaleOnesAndYConfirms() {
        var s = DeckTestState.make(width: 120, height: 40)
        #expect(press(&s, .char("p")) == [])
        guard case .prune(let items)? = s.modal else { Issue.record("no prune modal"); return }
        #expect(Set(items.map(\.id)) == ["gl/0000a007", "prod/0000a008", "work/0000a009", "work/0000a010", "work/0000a013", "legacy/0000a014"])
        #expect(press(&s, .char("y")) == [.prune(ids: items.map(\.id))])
        #expect(s.modal == nil)
        #expect(DeckReducer.reduce(&s, .pruned(count: 6)) == [.reload])
        #expect(s.message == "Pruned 6 accounts; press u to undo.")
        #expect(press(&s, .char("u")) == [.undoPrune])
        // n cancels without an effect.
        _ = press(&s, .char("p"))
        #expect(press(&s, .char("n")) == [] && s.modal == nil)
    }

    @Test func deviceCodePromptOpensAModalThatEscapeCancels() {
        var s = DeckTestState.make(width: 120, height: 40)
        let id = s.selectedRow!.id
        _ = press(&s, .enter)
        let prompt = SignInPrompt.deviceCode(userCode: "ABCD-1234", verificationURI: "https://example.test/device",
                                             verificationURIComplete: nil, message: nil, expiresAt: DeckTestState.now + .minutes(15))
        #expect(DeckReducer.reduce(&s, .signInPrompt(id: id, prompt)) == [.encodeQR("https://example.test/device")])
        #expect(s.modal == .deviceCode(id: id, userCode: "ABCD-1234", uri: "https://example.test/device",
                                       expiresAt: DeckTestState.now + .minutes(15), note: nil))
        // The encoded code is kept; the same URL again is not encoded twice.
        let qr = QRMatrix(size: 21, dark: Array(repeating: false, count: 441))
        #expect(DeckReducer.reduce(&s, .qrCode(uri: "https://example.test/device", qr)) == [])
        #expect(s.qrMatrix == qr && DeckReducer.reduce(&s, .signInPrompt(id: id, prompt)) == [])
        #expect(press(&s, .escape) == [.cancelSignIn(id: id)])
        #expect(s.modal == nil && s.busy[id] == nil)
    }

    @Test func logoutAsksFirst() {
        var s = DeckTestState.make(width: 120, height: 40)
        let id = s.selectedRow!.id
        #expect(press(&s, .char("d")) == [])
        #expect(press(&s, .char("c")) == [], "clearing the registration is offered for OAM accounts only")
        #expect(press(&s, .char("y")) == [.logout(id: id, clearRegistration: false)])
    }

    /// Issue 42: an account of a provider registered dynamically (`·dyn`) is offered `c`, as
    /// `logout --clear-registration` is; the window says what `c` deletes and when.
    @Test func logoutOffersClearingADynamicClientRegistration() throws {
        var s = DeckTestState.make(width: 120, height: 40)
        // The fixture's gl accounts hold nothing yet; this one is signed in.
        let r = try #require(s.rows.firstIndex { $0.providerId == "gl" })
        s.rows[r].holdsNothing = false
        let row = s.rows[r]
        let i = try #require(s.providers.firstIndex { $0.id == "gl" })
        s.providers[i].dynamicClient = true
        s.selectedID = row.id
        #expect(press(&s, .char("d")) == [])
        #expect(s.modal == .confirmLogout(id: row.id, username: s.accountName(row.id), offersClearRegistration: true, clientRegistration: true))
        let frame = DeckRenderer.render(s).text
        #expect(frame.contains("The client registration stays unless you clear it (last account only).") && frame.contains("c sign out and clear"),
                "\(frame)")
        #expect(press(&s, .char("c")) == [.logout(id: row.id, clearRegistration: true)])
    }

    @Test func addPicksAProviderThenSignsIn() {
        var s = DeckTestState.make(width: 120, height: 40)
        #expect(press(&s, .char("a")) == [])
        #expect(s.modal == .addAccount(providers: ["work", "prod", "sp", "fb", "gl"], selected: 0))
        #expect(press(&s, .down, .down, .up, .down) == [])
        #expect(press(&s, .enter) == [.signIn(provider: "sp")])
        #expect(s.modal == nil && s.busy["new:sp"] == "signing in")
        #expect(DeckReducer.reduce(&s, .signInFinished(id: "new:sp", failure: nil)) == [.reload])
        DeckTestState.rowsArrive(&s)
        #expect(s.busy.isEmpty && s.message == "Added an account to sp.")
    }

    /// The messages name who actually signed in: an existing account signed in again through
    /// `a`, and a re-sign-in where the person chose another user (the demo approving as taro
    /// for the stale hanako said "Signed in hanako" while taro's account was the one updated).
    @Test func signInMessagesNameTheAccountThatSignedIn() {
        var s = DeckTestState.make(width: 120, height: 40)
        _ = DeckReducer.reduce(&s, .signInFinished(id: "new:gl", failure: nil, account: "gl/x@example.jp", existing: true))
        DeckTestState.rowsArrive(&s)
        #expect(s.message == "Signed in gl/x@example.jp again (it was already in the deck).")
        _ = DeckReducer.reduce(&s, .signInFinished(id: "new:gl", failure: nil, account: "gl/y@example.jp"))
        DeckTestState.rowsArrive(&s)
        #expect(s.message == "Added gl/y@example.jp.")
        let id = s.rows[0].id
        let name = s.accountName(id)
        _ = DeckReducer.reduce(&s, .signInFinished(id: id, failure: nil, account: "gl/other@example.jp"))
        DeckTestState.rowsArrive(&s)
        #expect(s.message == "Signed in gl/other@example.jp, another account than \(name), which is unchanged.")
        _ = DeckReducer.reduce(&s, .signInFinished(id: id, failure: nil))
        DeckTestState.rowsArrive(&s)
        #expect(s.message == "Signed in \(name).")
    }

    @Test func ticksMoveTheClockAndQuitQuits() {
        var s = DeckTestState.make(width: 120, height: 40)
        // The fixture's expiring account (a002) is inside the default five-minute renew_before:
        // the first tick renews it ahead of expiry; the expired ones are left for a person.
        #expect(DeckReducer.reduce(&s, .tick(DeckTestState.now + .seconds(1))) == [.renewAhead(ids: ["work/0000a002"])])
        #expect(s.now == DeckTestState.now + .seconds(1))
        #expect(press(&s, .char("t")) == [] && s.themeName == "monochrome")
        #expect(press(&s, .char("q")) == [.quit] && s.quitting)
    }

    @Test func userKeysAliasActionsAndShowInTheHelp() {
        let keymap = Keymap.Resolved(overrides: ["renew": .char("e"), "quit": .escape])
        #expect(keymap.command(for: .char("e"), in: .deck) == .renew && keymap.command(for: .escape, in: .deck) == .quit)
        var s = DeckTestState.make(width: 120, height: 40)
        s.keymap = keymap
        let bar = DeckRenderer.render(s).line(39)
        #expect(bar.contains("e/Enter/r re-sign-in") && bar.contains("Esc/q quit"), "\(bar)")
    }

    @Test func aClickSelectsTheRowUnderIt() {
        var s = DeckTestState.make(width: 120, height: 40)
        let layout = DeckLayout(width: 120, height: 40)
        _ = DeckReducer.reduce(&s, .click(x: layout.tableX + 5, y: layout.firstRowY + 3))
        #expect(s.selectedID == s.visibleRows[3].id)
    }

    /// `*` asks the store even on a row marked default: the mark is from the last read, and
    /// another terminal's `authdeck use` may have moved the default since. The answer is shown
    /// after the account's name, a refusal after a colon.
    @Test func starAsksTheStoreAndSaysItsAnswer() throws {
        var s = DeckTestState.make(width: 120, height: 40)
        let row = try #require(s.selectedRow)
        s.rows[s.rows.firstIndex { $0.id == row.id }!].isDefault = true
        #expect(press(&s, .char("*")) == [.makeDefault(id: row.id)])
        let name = s.accountName(row.id)
        #expect(DeckReducer.reduce(&s, .defaultSet(id: row.id, said: "is now the default of \(row.providerId).", refused: false)) == [.reload])
        #expect(s.message == "\(name) is now the default of \(row.providerId).")
        _ = DeckReducer.reduce(&s, .defaultSet(id: row.id, said: "the account is gone", refused: true))
        #expect(s.message == "\(name): the account is gone")
    }
}
