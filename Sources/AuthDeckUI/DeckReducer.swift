import AuthDeckCore
import AuthDeckLook

/// The deck's update function: decides, never does. Same state and action, same result.
public enum DeckReducer {
    /// A failure is said at once (it changes no row); a success waits in `heldMessage` for
    /// the rows that show it, so the status line and the table agree in every frame.
    static func say(_ state: inout DeckState, _ failure: String?, held success: String, waitingFor id: String?) {
        if let failure {
            state.message = failure
        } else {
            state.heldMessage = DeckState.HeldMessage(text: success, accountId: id)
        }
    }

    /// Staying signed in while the deck is open: accounts whose `renewAt` has come are renewed
    /// silently, with a note in the status line — not while one runs, and not before the date
    /// the last renewal's pacing gave (after failures, a back-off; after a success that left
    /// the account due, 30 s).
    static func renewDue(_ state: inout DeckState, now: Instant) -> [DeckEffect] {
        let due = state.rows.filter { r in
            guard let at = r.renewAt, at <= now, state.busy[r.id] == nil else { return false }
            return state.renewNotBefore[r.id].map { now >= $0 } ?? true
        }
        guard !due.isEmpty else { return [] }
        for r in due { state.busy[r.id] = "renewing" }
        state.message = due.count == 1 ? "Renewing \(state.accountName(due[0].id)) before it expires…" : "Renewing \(due.count) accounts before they expire…"
        return [.renewAhead(ids: due.map(\.id))]
    }

    public static func reduce(_ state: inout DeckState, _ action: DeckAction) -> [DeckEffect] {
        let shown = state.modal
        let effects = apply(&state, action)
        keepAsk(&state, shown: shown)
        return effects + eventsWanted(&state, after: effects)
    }

    /// A read of the selected account's rows when its recent events were not read: a snapshot
    /// reads them only for the account selected at the time, so a freshly opened deck (nothing
    /// selected yet) and every row moved to would show none. Asked once per account until read;
    /// not when a read of the store is already among `effects`.
    static func eventsWanted(_ state: inout DeckState, after effects: [DeckEffect]) -> [DeckEffect] {
        guard let row = state.selectedRow, !row.eventsRead else {
            state.eventsAsked = nil
            return []
        }
        guard state.eventsAsked != row.id, !effects.contains(.reload) else { return [] }
        state.eventsAsked = row.id
        return [.readEvents(id: row.id)]
    }

    static func apply(_ state: inout DeckState, _ action: DeckAction) -> [DeckEffect] {
        switch action {
        case .tick(let now):
            state.now = now
            state.spinnerPhase &+= 1
            if state.message != nil, let at = state.messageAt, now - at >= DeckState.messageLife { state.message = nil }
            let expired = expireAsks(&state, now: now)
            guard let at = state.reloadAt, now >= at else { return expired + renewDue(&state, now: now) }
            state.reloadAt = nil
            return expired + [.reload] + renewDue(&state, now: now)
        case .resize(let w, let h):
            state.width = w
            state.height = h
            return []
        case let .loaded(rows, providers, now, changesAt):
            let place = selectedPlace(state)
            state.rows = rows
            state.providers = providers
            state.now = now
            state.reloadAt = changesAt
            keepSelection(&state, near: place)
            state.selectedProvider = min(state.selectedProvider, max(0, providers.count - 1))
            if let held = state.heldMessage { (state.message, state.heldMessage) = (held.text, nil) }
            return []
        case let .rowsUpdated(ids, rows, changesAt):
            let place = selectedPlace(state)
            let asked = Set(ids), fresh = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var kept = state.rows.compactMap { row in asked.contains(row.id) || fresh[row.id] != nil ? fresh[row.id] : row }
            kept += rows.filter { row in !state.rows.contains { $0.id == row.id } }
            state.rows = kept
            state.providers = DeckSnapshot.tally(state.rows, providers: state.providers)
            if let changesAt, changesAt < state.reloadAt ?? changesAt + .seconds(1) { state.reloadAt = changesAt }
            keepSelection(&state, near: place)
            if let held = state.heldMessage, let id = held.accountId, asked.contains(id) { (state.message, state.heldMessage) = (held.text, nil) }
            return []
        case let .renewFinished(id, failure, retryAt):
            state.busy.removeValue(forKey: id)
            state.agentSignIns.remove(id)
            state.renewNotBefore[id] = retryAt
            let name = state.accountName(id)
            say(&state, failure.map { "\(name): \($0)" }, held: "Renewed \(name).", waitingFor: id)
            // Only its row (and its duplicates') changed: read those, not the whole store.
            return [.refreshRows(ids: [id])]
        case let .signInPrompt(id, prompt):
            switch prompt {
            case let .deviceCode(userCode, uri, complete, _, expiresAt):
                // A person is asked now: the row no longer says "renewing".
                if state.busy[id] != nil { state.busy[id] = "signing in" }
                state.modal = .deviceCode(id: id, userCode: userCode, uri: complete ?? uri, expiresAt: expiresAt, note: nil)
                if state.qrURI != complete ?? uri { return [.encodeQR(complete ?? uri)] }
            case let .browser(url, _):
                if state.busy[id] != nil { state.busy[id] = "signing in" }
                state.modal = .browser(id: id, url: url)
            case .notice(let text):
                if case .deviceCode(let i, let c, let u, let e, _) = state.modal {
                    state.modal = .deviceCode(id: i, userCode: c, uri: u, expiresAt: e, note: TerminalText.inert(text))
                } else {
                    state.message = TerminalText.inert(text)
                }
            }
            return []
        case let .passwordPrompt(id, account, note):
            state.busy[id] = "signing in"
            state.modal = .password(id: id, account: account, typed: PasswordEntry(), note: note.map(TerminalText.inert))
            return []
        case let .signInFinished(id, failure, account, existing):
            state.busy.removeValue(forKey: id)
            state.agentSignIns.remove(id)
            if isSignInModal(state.modal) { state.modal = nil }
            if failure == cancelledFailure {
                // Said as Esc said it: the two arrive in either order and must not disagree.
                state.message = cancelledMessage(id, state)
                return [.reload]
            }
            // `account` names who actually signed in: a person may pick another user in the
            // browser or on the device page, and the message must not claim the wrong one.
            if id.hasPrefix("new:") {
                let provider = String(id.dropFirst(4))
                let added = account.map { existing ? "Signed in \($0) again (it was already in the deck)." : "Added \($0)." }
                say(&state, failure.map { "\(provider): \($0)" }, held: added ?? "Added an account to \(provider).", waitingFor: nil)
                return [.reload]
            }
            let name = state.accountName(id)
            let other = account.map { "Signed in \($0), another account than \(name), which is unchanged." }
            say(&state, failure.map { "\(name): \($0)" }, held: other ?? "Signed in \(name).", waitingFor: nil)
            return [.reload]
        case .pruned(let n):
            state.message = n == 0 ? "Nothing to prune." : "Pruned \(n) account\(n == 1 ? "" : "s"); press u to undo."
            return [.reload]
        case .restored(let n):
            state.message = n == 0 ? "The quarantine is empty." : "Restored \(n) account\(n == 1 ? "" : "s")."
            return [.reload]
        case let .defaultSet(id, said, refused):
            state.message = state.accountName(id) + (refused ? ": " : " ") + said
            return [.reload]
        case let .loggedOut(id, failure):
            state.busy.removeValue(forKey: id)
            let name = state.accountName(id)
            say(&state, failure.map { "\(name): \($0)" }, held: "Signed out \(name).", waitingFor: nil)
            return [.reload]
        case let .eventsRead(id, events):
            state.attach(events: events, to: id)
            return []
        case .agentAsked(let ask):
            state.agentAsks.append(ask)
            // Behind another ask its window counts the queue; behind anything else it is said here.
            if case .agentAsk? = state.modal { return [] }
            if state.modal != nil || state.editingFilter {
                state.message = "\(ask.hostName) asks for \(ask.account): its window opens when this \(state.editingFilter ? "filter" : "window") closes."
            }
            return []
        case .agentAskEnded(let ticket):
            return endAsk(&state, ticket: ticket)
        case .handOutsRead(let handOuts):
            state.handOuts = handOuts
            return []
        case .agentSignIn(let id):
            // Signed in as Enter signs it in; one already under way is waited for instead.
            guard state.busy[id] == nil else { return [] }
            state.busy[id] = "signing in"
            state.agentSignIns.insert(id)
            state.message = "A host asks for \(state.accountName(id)), which needs a sign-in: signing it in."
            return [.renew(ids: [id], interactiveIfNeeded: true)]
        case .agentSignInTimedOut(let id):
            guard state.agentSignIns.remove(id) != nil, state.busy[id] != nil else { return [] }
            // Only this account's window closes: an ask or another sign-in may be open.
            if signInModalId(state.modal) == id { state.modal = nil }
            state.busy.removeValue(forKey: id)
            state.message = "The sign-in of \(state.accountName(id)) stopped: the host's request timed out."
            return [.cancelSignIn(id: id)]
        case .agentNotServing(let why):
            state.message = state.message.map { "\($0) · \(why)" } ?? why
            return []
        case .agentServing(let path):
            state.message = "The agent at \(TerminalText.inert(path)) has stopped: this deck serves hosts now."
            return []
        case let .qrCode(uri, matrix):
            state.qrURI = uri
            state.qrMatrix = matrix
            return []
        case .failed(let text):
            state.message = TerminalText.inert(text)
            return []
        case let .click(x, y):
            return click(&state, x: x, y: y)
        case .key(let key):
            return press(&state, key)
        }
    }

    /// The account a sign-in window is for.
    static func signInModalId(_ m: DeckState.Modal?) -> String? {
        switch m {
        case .deviceCode(let id, _, _, _, _)?, .browser(let id, _)?, .password(let id, _, _, _)?: return id
        default: return nil
        }
    }

    static func isSignInModal(_ m: DeckState.Modal?) -> Bool {
        switch m {
        case .deviceCode, .browser, .password: return true
        default: return false
        }
    }

    /// A key: typed into the filter as text, else resolved through the state's keymap (the
    /// user's `[keys]` applied) to a command for the deck or the window over it.
    static func press(_ state: inout DeckState, _ key: Key) -> [DeckEffect] {
        if case let .password(id, account, typed, note)? = state.modal {
            return typePassword(&state, key, id: id, account: account, typed: typed, note: note)
        }
        if case .agentAsk(let ask)? = state.modal { return pressInAgentWindow(&state, ask, state.keymap.command(for: key, in: .agentWindow)) }
        if let modal = state.modal { return pressInModal(&state, modal, state.keymap.command(for: key, in: .window)) }
        if state.editingFilter {
            switch key {
            case .char(let c): state.filter.append(c)
            case .backspace: if !state.filter.isEmpty { state.filter.removeLast() }
            case .enter: state.editingFilter = false
            case .escape:
                state.filter = ""
                state.editingFilter = false
            default: break
            }
            state.selectedID = state.visibleRows.first?.id
            return []
        }
        guard let command = state.keymap.command(for: key, in: .deck) else { return [] }
        return perform(&state, command)
    }

    static func perform(_ state: inout DeckState, _ command: Keymap.Command) -> [DeckEffect] {
        switch command {
        case .moveUp: move(&state, by: -1)
        case .moveDown: move(&state, by: 1)
        case .pageUp: move(&state, by: -10)
        case .pageDown: move(&state, by: 10)
        case .first: move(&state, by: -100_000)
        case .last: move(&state, by: 100_000)
        case .switchPane:
            // At 80 columns there is no providers pane to switch to: say so rather than nothing.
            guard DeckLayout(width: state.width, height: state.height).providersWidth > 0 else {
                state.message = "No providers pane below \(DeckLayout.providersMinWidth) columns; / filters by provider."
                return []
            }
            state.pane = state.pane == .accounts ? .providers : .accounts
        case .cancel:
            if !state.filter.isEmpty { state.filter = "" }
        case .renew:
            if state.pane == .providers, state.providers.indices.contains(state.selectedProvider) {
                state.filter = state.providers[state.selectedProvider].id
                state.pane = .accounts
                state.selectedID = state.visibleRows.first?.id
                return []
            }
            guard let row = state.selectedRow, state.busy[row.id] == nil else { return [] }
            // Acted on, the row stays selected as its result moves it.
            state.selectedID = row.id
            state.busy[row.id] = "renewing"
            state.message = nil
            return [.renew(ids: [row.id], interactiveIfNeeded: true)]
        case .renewAll:
            let due = state.rows.filter { r in
                switch r.state {
                case .expiringSoon, .renewDue, .expired(true): return state.busy[r.id] == nil
                default: return false
                }
            }.map(\.id)
            guard !due.isEmpty else {
                state.message = "Nothing is expired or expiring that can renew silently."
                return []
            }
            for id in due { state.busy[id] = "renewing" }
            return [.renew(ids: due, interactiveIfNeeded: false)]
        case .filter: state.editingFilter = true
        case .sort:
            let all = DeckState.Sort.allCases
            state.sort = all[(all.firstIndex(of: state.sort)! + 1) % all.count]
            state.message = "Sorted by \(state.sort.rawValue)."
        case .prune:
            let stale = state.rows.filter { if case .stale = $0.state { return true } else { return false } }
            let items = zip(stale, state.accountNames(stale)).compactMap { r, name -> DeckState.StaleItem? in
                guard case .stale(let reason) = r.state else { return nil }
                return DeckState.StaleItem(id: r.id, username: name, reason: reason.sentence)
            }
            if items.isEmpty { state.message = "Nothing to prune." } else { state.modal = .prune(items) }
        case .undoPrune: return [.undoPrune]
        case .makeDefault:
            // Whether it is the default already is the store's to say (`DefaultChoice`): the
            // row's mark may be older than another terminal's `authdeck use`.
            guard let row = state.selectedRow else { return [] }
            return [.makeDefault(id: row.id)]
        case .logout:
            if let row = state.selectedRow, row.holdsNothing {
                // Nothing to revoke or delete: asking "sign out?" would promise what it cannot do.
                state.message = "\(state.accountName(row.id)) holds no credentials to sign out; Enter signs it in"
                    + (row.keepsRegistration ? "." : ", p prunes it once it is stale.")
            } else if let row = state.selectedRow {
                // OAM keeps a registration per account; a provider registered dynamically
                // (`·dyn`) holds one client for all its accounts, which sign-out deletes with the
                // last of them — the same choice `logout --clear-registration` offers.
                let dynamic = !row.keepsRegistration && state.providers.contains { $0.id == row.providerId && $0.dynamicClient }
                state.modal = .confirmLogout(id: row.id, username: state.accountName(row.id),
                                             offersClearRegistration: row.keepsRegistration || dynamic, clientRegistration: dynamic)
            }
        case .add:
            if state.providers.isEmpty {
                state.message = "No providers are configured: add [[provider]] tables to config.toml."
            } else {
                state.modal = .addAccount(providers: state.providers.map(\.id), selected: 0)
            }
        case .nextTheme:
            if let i = state.themeNames.firstIndex(of: state.themeName), !state.themeNames.isEmpty {
                state.themeName = state.themeNames[(i + 1) % state.themeNames.count]
                state.message = "Theme: \(state.themeName)."
            }
        case .help:
            state.modal = .help
            state.helpOffset = 0
        case .quit:
            state.quitting = true
            return [.quit]
        case .confirm, .confirmAndClearRegistration, .decline, .choose, .openInBrowser, .allowOnce, .allowForConnection, .deny: break  // windows only
        }
        return []
    }

    /// What the runtime reports as the failure of a sign-in it cancelled (Esc, q).
    public static let cancelledFailure = "cancelled"

    /// The one sentence for a cancelled sign-in, whichever of Esc and the sign-in's end comes first.
    static func cancelledMessage(_ id: String, _ state: DeckState) -> String {
        id.hasPrefix("new:") ? "Sign-in to \(id.dropFirst(4)) cancelled." : "Sign-in of \(state.accountName(id)) cancelled."
    }

    /// Closes the sign-in window of `id` and cancels its sign-in, saying so.
    static func cancelSignIn(_ state: inout DeckState, _ id: String) -> [DeckEffect] {
        state.modal = nil
        state.busy.removeValue(forKey: id)
        state.message = cancelledMessage(id, state)
        return [.cancelSignIn(id: id)]
    }

    /// A key in the password window: every character is part of the password (`q` too), so
    /// no key binding applies there; Enter hands it to the sign-in, Esc cancels the sign-in.
    static func typePassword(_ state: inout DeckState, _ key: Key, id: String, account: String, typed: PasswordEntry, note: String?) -> [DeckEffect] {
        var typed = typed
        switch key {
        case .char(let c):
            typed.type(c)
        case .backspace:
            typed.erase()
        case .enter:
            guard !typed.isEmpty else { return [] }
            state.modal = nil
            state.message = "Signing in \(account)…"
            return [.answerPassword(id: id, typed.secret)]
        case .escape:
            return cancelSignIn(&state, id)
        default:
            return []
        }
        state.modal = .password(id: id, account: account, typed: typed, note: note)
        return []
    }

    /// A command in a window; `nil` when the key gives none (it still closes the help).
    static func pressInModal(_ state: inout DeckState, _ modal: DeckState.Modal, _ command: Keymap.Command?) -> [DeckEffect] {
        switch modal {
        case .help:
            // Down, Up and the page keys page through it; any other key closes it.
            let page = max(1, DeckRenderer.helpRows(state))
            let most = max(0, DeckRenderer.helpLines(state).count - page)
            switch command {
            case .moveDown: state.helpOffset = min(most, state.helpOffset + 1)
            case .moveUp: state.helpOffset = max(0, state.helpOffset - 1)
            case .pageDown: state.helpOffset = min(most, state.helpOffset + page)
            case .pageUp: state.helpOffset = max(0, state.helpOffset - page)
            default: state.modal = nil
            }
        case .prune(let items):
            switch command {
            case .confirm:
                state.modal = nil
                return [.prune(ids: items.map(\.id))]
            case .decline, .cancel, .quit: state.modal = nil
            default: break
            }
        case .confirmLogout(let id, _, let offersClear, _):
            switch command {
            case .confirm, .confirmAndClearRegistration:
                let clear = command == .confirmAndClearRegistration
                if clear && !offersClear { break }  // c only where there is a registration to clear
                state.modal = nil
                state.busy[id] = "signing out"
                return [.logout(id: id, clearRegistration: clear)]
            case .decline, .cancel, .quit: state.modal = nil
            default: break
            }
        case .addAccount(let providers, let selected):
            switch command {
            case .moveUp: state.modal = .addAccount(providers: providers, selected: max(0, selected - 1))
            case .moveDown: state.modal = .addAccount(providers: providers, selected: min(providers.count - 1, selected + 1))
            // Home, End, PgUp and PgDn move here as the help says they do in lists.
            case .first, .pageUp: state.modal = .addAccount(providers: providers, selected: 0)
            case .last, .pageDown: state.modal = .addAccount(providers: providers, selected: providers.count - 1)
            case .choose:
                state.modal = nil
                let provider = providers[selected]
                state.busy["new:" + provider] = "signing in"
                state.message = "Signing in to \(provider)…"
                return [.signIn(provider: provider)]
            case .cancel, .quit: state.modal = nil
            default: break
            }
        case .deviceCode(let id, _, _, _, _), .browser(let id, _):
            if command == .cancel || command == .quit {
                let cancel = cancelSignIn(&state, id)
                // q quits here as the help bar says: the sign-in is cancelled on the way out.
                guard command == .quit else { return cancel }
                state.quitting = true
                return cancel + [.quit]
            }
            if case .browser(_, let url) = modal, command == .openInBrowser { return [.openURL(url)] }
        case .password:
            break  // typed, not commanded: `typePassword`
        case .agentAsk:
            break  // its own keys: `pressInAgentWindow`
        }
        return []
    }

    /// A key in the agent window: o, c, d (and Esc) answer the host; q denies it and quits.
    /// Every other key does nothing, so a key meant for the deck cannot allow anything.
    static func pressInAgentWindow(_ state: inout DeckState, _ ask: DeckAgentAsk, _ command: Keymap.Command?) -> [DeckEffect] {
        let answer: DeckAgentAsk.Answer
        switch command {
        case .allowOnce:
            answer = .once
            state.message = "Allowed \(ask.account) to \(ask.hostName), this once."
        case .allowForConnection:
            // A host that only claims its name came through no `authdeck ssh` session: there is
            // no connection to allow it for, so `c` is not offered and does nothing.
            guard !ask.hostClaimed else { return [] }
            answer = .connection
            state.message = "Allowed \(ask.account) to \(ask.hostName) for this connection."
        case .deny:
            answer = .deny
            state.message = "Denied \(ask.account) to \(ask.hostName)."
        case .quit:
            // Leaving answers every host still waiting: no remote command waits for a deck gone.
            state.modal = nil
            state.quitting = true
            let waiting = [ask] + state.agentAsks
            state.agentAsks = []
            return waiting.map { .answerAgent(ticket: $0.ticket, .deny) } + [.quit]
        default:
            return []
        }
        state.modal = nil
        return [.answerAgent(ticket: ask.ticket, answer)]
    }

    /// Asks whose requests stopped waiting by `now` close as denied, each said: the remote
    /// command has given up by then, and a window left open would answer nobody.
    static func expireAsks(_ state: inout DeckState, now: Instant) -> [DeckEffect] {
        var gone = state.agentAsks.filter { $0.deadline <= now }
        state.agentAsks.removeAll { $0.deadline <= now }
        if case .agentAsk(let ask)? = state.modal, ask.deadline <= now {
            state.modal = nil
            gone.insert(ask, at: 0)
        }
        guard let first = gone.first else { return [] }
        state.message = gone.count == 1 ? "Denied \(first.account) to \(first.hostName): no answer before its request timed out."
            : "Denied \(gone.count) hosts' requests: no answer before they timed out."
        return gone.map { .answerAgent(ticket: $0.ticket, .deny) }
    }

    /// The request of `ticket` stopped waiting (its client hung up): its window closes, or it
    /// leaves the queue, and the status line says so.
    static func endAsk(_ state: inout DeckState, ticket: Int) -> [DeckEffect] {
        var ended = state.agentAsks.first { $0.ticket == ticket }
        state.agentAsks.removeAll { $0.ticket == ticket }
        if case .agentAsk(let ask)? = state.modal, ask.ticket == ticket {
            state.modal = nil
            ended = ask
        }
        if let ended { state.message = "\(ended.hostName) stopped waiting for \(ended.account)." }
        return []
    }

    /// The agent window after an action: one that another window replaced (a sign-in's code
    /// arriving) goes back to the head of the queue, unanswered; with no window open and no
    /// filter being typed, the oldest waiting ask is shown.
    static func keepAsk(_ state: inout DeckState, shown: DeckState.Modal?) {
        if case .agentAsk(let ask)? = shown, let current = state.modal, current != shown {
            state.agentAsks.insert(ask, at: 0)
        }
        if state.modal == nil, !state.editingFilter, !state.quitting, !state.agentAsks.isEmpty {
            state.modal = .agentAsk(state.agentAsks.removeFirst())
        }
    }

    static func move(_ state: inout DeckState, by delta: Int) {
        if state.pane == .providers {
            state.selectedProvider = max(0, min(state.providers.count - 1, state.selectedProvider + delta))
            return
        }
        let rows = state.visibleRows
        guard !rows.isEmpty else { return }
        let current = rows.firstIndex { $0.id == state.selectedRow?.id } ?? 0
        state.selectedID = rows[max(0, min(rows.count - 1, current + delta))].id
    }

    static func click(_ state: inout DeckState, x: Int, y: Int) -> [DeckEffect] {
        let layout = DeckLayout(width: state.width, height: state.height)
        guard state.modal == nil, !layout.tooSmall, x >= layout.tableX else { return [] }
        let rows = state.visibleRows
        let offset = scrollOffset(rows: rows, selected: state.selectedRow?.id, visible: layout.visibleRowCount)
        let index = y - layout.firstRowY + offset
        if y >= layout.firstRowY, y < layout.firstRowY + layout.visibleRowCount, rows.indices.contains(index) {
            state.selectedID = rows[index].id
            state.pane = .accounts
        }
        return []
    }

    /// The first visible table row so that the selection stays on screen.
    /// Where the selected row stands among the visible rows, before they change.
    static func selectedPlace(_ state: DeckState) -> Int? {
        state.visibleRows.firstIndex { $0.id == state.selectedID }
    }

    /// Keeps the selection when its row is still there; when it went (signed out, pruned), the
    /// row now in its place is selected, not the first one, so a person working down the list
    /// (signing out one account after another) stays where they were.
    static func keepSelection(_ state: inout DeckState, near place: Int?) {
        let visible = state.visibleRows
        // None chosen yet: the top row, whatever moved there (a renewal reorders the rows).
        guard state.selectionChosen else {
            state.selectedID = visible.first?.id
            state.selectionChosen = false
            return
        }
        if let id = state.selectedID, visible.contains(where: { $0.id == id }) { return }
        if let id = state.selectedID, state.rows.contains(where: { $0.id == id }) { return }
        state.selectedID = visible.isEmpty ? nil : visible[min(place ?? 0, visible.count - 1)].id
    }

    public static func scrollOffset(rows: [DeckRow], selected: String?, visible: Int) -> Int {
        guard visible > 0, let i = rows.firstIndex(where: { $0.id == selected }) else { return 0 }
        return max(0, i - visible + 1)
    }
}
