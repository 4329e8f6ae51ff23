import AuthDeckCore

/// Draws a `DeckState` into a `ScreenBuffer`: pure, so every screen can be tested as text.
public enum DeckRenderer {
    /// Box and badge characters: Unicode, or ASCII for terminals without a UTF-8 locale.
    public struct Glyphs: Sendable {
        let h, v, tl, tr, bl, br: Character
        let spinner: [Character]
        func badge(_ s: AccountState) -> String {
            switch s {
            case .signedIn: return ascii ? "+" : "●"
            case .expiringSoon: return ascii ? "~" : "◐"
            case .expired: return ascii ? "x" : "○"
            case .needsSignIn: return ascii ? "!" : "▲"
            case .stale: return ascii ? "-" : "✕"
            case .failed: return ascii ? "#" : "■"
            }
        }
        let ascii: Bool
        public static let unicode = Glyphs(h: "─", v: "│", tl: "┌", tr: "┐", bl: "└", br: "┘", spinner: Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"), ascii: false)
        public static let plain = Glyphs(h: "-", v: "|", tl: "+", tr: "+", bl: "+", br: "+", spinner: Array("|/-\\"), ascii: true)
    }

    public static func render(_ state: DeckState, glyphs: Glyphs = .unicode) -> ScreenBuffer {
        var b = ScreenBuffer(width: state.width, height: state.height)
        let layout = DeckLayout(width: state.width, height: state.height)
        if layout.tooSmall {
            let text = "Window too small: \(state.width)×\(state.height); authdeck needs \(DeckLayout.minWidth)×\(DeckLayout.minHeight)."
            b.put(text, x: max(0, (state.width - CharacterWidth.of(text)) / 2), y: state.height / 2, role: .accent)
            return b
        }
        header(&b, state, glyphs)
        if layout.providersWidth > 0 { providers(&b, state, layout, glyphs) }
        table(&b, state, layout, glyphs)
        detail(&b, state, layout, glyphs)
        status(&b, state, layout, glyphs)
        helpBar(&b, state, layout)
        if let modal = state.modal { self.modal(&b, modal, state, glyphs) }
        return b
    }

    static func hline(_ b: inout ScreenBuffer, y: Int, x: Int, width: Int, _ g: Glyphs) {
        b.put(String(repeating: g.h, count: max(0, width)), x: x, y: y, role: .border)
    }

    /// The key source, then the store path shortened from the left (`…/authdeck/authdeck.db`)
    /// to fit `width`: which key unlocks the store matters more than the path's first half.
    static func storeLabel(_ s: DeckState, width: Int) -> String {
        let full = " \(s.keySource) · \(s.storePath) "
        guard CharacterWidth.of(full) > width else { return full }
        let budget = width - CharacterWidth.of(" \(s.keySource) · … ")
        guard budget >= 8 else { return " \(s.keySource) " }
        var tail = ""
        for ch in s.storePath.reversed() {
            guard CharacterWidth.of(tail) + CharacterWidth.of(ch) <= budget else { break }
            tail.insert(ch, at: tail.startIndex)
        }
        return " \(s.keySource) · …\(tail) "
    }

    static func header(_ b: inout ScreenBuffer, _ s: DeckState, _ g: Glyphs) {
        b.fill(x: 0, y: 0, width: b.width, height: 1, role: .header)
        var x = b.put(" authdeck ", x: 0, y: 0, role: .header)
        let clock = String(s.now.iso8601.dropFirst(11))
        let clockX = b.width - clock.count - 1
        // The counts first (they say what to act on), in the longest form that leaves the store
        // label room for the whole key source and at least 24 columns; the label takes the rest.
        let counts = countTexts(s.counts, room: clockX - x - max(24, CharacterWidth.of(" \(s.keySource) ") + 1), g)
        let countsWidth = counts.reduce(0) { $0 + CharacterWidth.of($1.0) }
        let storeWidth = max(10, clockX - x - countsWidth - 1)
        x = b.put(storeLabel(s, width: storeWidth), x: x, y: 0, role: .header, maxWidth: storeWidth)
        for (text, sample) in counts {
            guard x + CharacterWidth.of(text) < clockX else { break }
            x = b.put(text, x: x, y: 0, role: Role.of(sample))
        }
        b.put(clock, x: clockX, y: 0, role: .header)
        hline(&b, y: 1, x: 0, width: b.width, g)
    }

    /// The header's count of each state some account is in, in the longest form that fits
    /// them all in `room` columns: full labels, short labels, then badges and numbers alone.
    /// Why: fitting full labels one by one dropped the last states — stale, failed, needs
    /// sign-in, the ones to act on — on a 120-column terminal.
    static func countTexts(_ counts: [String: Int], room: Int, _ g: Glyphs) -> [(String, AccountState)] {
        let shown: [(AccountState, Int)] = AccountState.allKeys.compactMap { key in
            guard let n = counts[key], n > 0 else { return nil }
            return (sampleState(key), n)
        }
        let labels: [(AccountState) -> String] = [{ " " + $0.label }, { " " + shortLabel($0) }, { _ in "" }]
        var texts: [(String, AccountState)] = []
        for label in labels {
            texts = shown.map { state, n in (" \(g.badge(state)) \(n)" + label(state), state) }
            if texts.reduce(0, { $0 + CharacterWidth.of($1.0) }) < room { break }
        }
        return texts
    }

    static func sampleState(_ key: String) -> AccountState {
        switch key {
        case "signed_in": return .signedIn
        case "expiring_soon": return .expiringSoon
        case "expired": return .expired(renewable: false)
        case "needs_sign_in": return .needsSignIn(reason: "")
        case "failed": return .failed(reason: "")
        default: return .stale(reason: .unused(days: 0))
        }
    }

    static func providers(_ b: inout ScreenBuffer, _ s: DeckState, _ l: DeckLayout, _ g: Glyphs) {
        let w = l.providersWidth
        b.put(" PROVIDERS", x: 0, y: l.tableHeaderY, role: s.pane == .providers ? .accent : .dim)
        for (i, p) in s.providers.enumerated() {
            let y = l.firstRowY + i
            guard y < l.statusY - 1 else { break }
            let badge = p.worst.map(g.badge) ?? " "
            b.put(" \(badge) ", x: 0, y: y, role: p.worst.map(Role.of) ?? .dim)
            // The count stays whole; a long id gives way to it.
            let count = " (\(p.accounts))"
            let end = b.put(p.id, x: 3, y: y, maxWidth: max(1, w - 15 - count.count))
            b.put(count, x: end, y: y, maxWidth: w - 12 - end)
            b.put(p.kind.label, x: w - 11, y: y, role: .dim, maxWidth: 10)
            if s.pane == .providers && i == s.selectedProvider { b.paint(.selection, x: 0, y: y, width: w - 1) }
        }
        for y in l.tableHeaderY..<l.statusY { b.put(String(g.v), x: w - 1, y: y, role: .border) }
    }

    /// A state's label in the table (the detail pane shows the full one).
    public static func shortLabel(_ s: AccountState) -> String {
        switch s {
        case .expiringSoon: return "expiring"
        case .expired(true): return "expired ↻"
        case .needsSignIn: return "sign in"
        default: return s.label
        }
    }

    /// Column widths for the table, from what fits.
    static func columns(_ width: Int) -> [(String, Int)] {
        // Sized for their longest contents: "◐ expiring", "expired 119d 00h ago", "100d 00h ago".
        let fixed = [("STATE", 14), ("EXPIRES", 21), ("LAST USED", 13)]
        let rest = max(24, width - fixed.map(\.1).reduce(0, +) - 2)
        let provider = min(14, rest / 5), realm = width >= 110 ? min(20, rest / 5) : 0
        let name = (rest - provider - realm) / 2
        var cols = [("PROVIDER", provider), ("NAME", name), ("USER", rest - provider - realm - name)]
        if realm > 0 { cols.append(("REALM", realm)) }
        return cols + fixed
    }

    static func table(_ b: inout ScreenBuffer, _ s: DeckState, _ l: DeckLayout, _ g: Glyphs) {
        let cols = columns(l.tableWidth - 1)
        var x = l.tableX + 1
        for (title, w) in cols {
            b.put(title, x: x, y: l.tableHeaderY, role: s.pane == .accounts ? .accent : .dim, maxWidth: w - 1)
            x += w
        }
        let rows = s.visibleRows
        if rows.isEmpty {
            b.put(s.filter.isEmpty ? "No accounts yet: `authdeck login PROVIDER` adds one." : "No account matches \"\(s.filter)\".",
                  x: l.tableX + 2, y: l.firstRowY, role: .dim)
            return
        }
        let offset = DeckReducer.scrollOffset(rows: rows, selected: s.selectedRow?.id, visible: l.visibleRowCount)
        for (i, row) in rows.dropFirst(offset).prefix(l.visibleRowCount).enumerated() {
            let y = l.firstRowY + i
            var cells: [(String, Role)] = [(row.providerId, .normal), (row.displayName, .normal), (row.username, .normal)]
            if cols.count == 7 { cells.append((row.realm, .dim)) }
            let busy = s.busy[row.id].map { _ in String(g.spinner[s.spinnerPhase % g.spinner.count]) + " " }
            let label = shortLabel(row.state)
            cells.append(((busy ?? g.badge(row.state) + " ") + label, busy == nil ? Role.of(row.state) : .accent))
            cells.append((ExpiryText.describe(row.expiry, now: s.now, neverExpires: row.neverExpires), expiryRole(row, s.now)))
            cells.append((ExpiryText.ago(row.lastUsed, now: s.now), .dim))
            var cx = l.tableX + 1
            for ((text, role), (_, w)) in zip(cells, cols) {
                b.put(text, x: cx, y: y, role: role, maxWidth: w - 1)
                cx += w
            }
            if row.id == s.selectedRow?.id { b.paint(.selection, x: l.tableX, y: y, width: l.tableWidth) }
        }
    }

    static func expiryRole(_ row: DeckRow, _ now: Instant) -> Role {
        guard let e = row.expiry else { return .dim }
        return e <= now ? .expired : (e - now < .minutes(10) ? .expiringSoon : .normal)
    }

    static func detail(_ b: inout ScreenBuffer, _ s: DeckState, _ l: DeckLayout, _ g: Glyphs) {
        hline(&b, y: l.detailY, x: l.tableX, width: l.tableWidth, g)
        guard let row = s.selectedRow else { return }
        b.put(" \(row.username) ", x: l.tableX + 2, y: l.detailY, role: .accent)
        var lines = ["\(row.state.label)\(row.state.reason.map { " — \($0)" } ?? "")"] + row.detail
        lines = Array(lines.prefix(l.detailHeight))
        for (i, line) in lines.enumerated() {
            b.put(line, x: l.tableX + 2, y: l.detailY + 1 + i, role: i == 0 ? Role.of(row.state) : .normal, maxWidth: l.tableWidth - 3)
        }
    }

    static func status(_ b: inout ScreenBuffer, _ s: DeckState, _ l: DeckLayout, _ g: Glyphs) {
        b.fill(x: 0, y: l.statusY, width: b.width, height: 1, role: .status)
        var text = ""
        if s.editingFilter || !s.filter.isEmpty {
            text = " /\(s.filter)\(s.editingFilter ? "█" : "")"
            if s.editingFilter {
                b.put(text, x: 0, y: l.statusY, role: .status)
                return
            }
        }
        if !s.busy.isEmpty {
            text += " \(g.spinner[s.spinnerPhase % g.spinner.count]) \(s.busy.count) in progress"
        }
        if let m = s.message { text += (text.isEmpty ? " " : " · ") + m }
        b.put(text, x: 0, y: l.statusY, role: .status)
    }

    static func helpBar(_ b: inout ScreenBuffer, _ s: DeckState, _ l: DeckLayout) {
        var x = 1
        for binding in Keymap.bindings where binding.inBar {
            let key = s.keyLabels[binding.action].map { "\($0)/" + binding.label } ?? binding.label, short = binding.short
            guard x + key.count + short.count + 3 < b.width else { break }
            x = b.put(key, x: x, y: l.helpY, role: .accent)
            x = b.put(" \(short)  ", x: x, y: l.helpY, role: .dim)
        }
    }

    static func box(_ b: inout ScreenBuffer, title: String, lines: [(String, Role)], _ g: Glyphs) {
        let inner = min(b.width - 6, max(CharacterWidth.of(title) + 4, lines.map { CharacterWidth.of($0.0) }.max() ?? 0) + 2)
        let h = min(b.height - 2, lines.count + 2)
        let x = (b.width - inner - 2) / 2, y = max(1, (b.height - h) / 2)
        b.fill(x: x, y: y, width: inner + 2, height: h, role: .modal)
        b.put(String(g.tl) + String(repeating: g.h, count: inner) + String(g.tr), x: x, y: y, role: .border)
        b.put(" \(title) ", x: x + 2, y: y, role: .accent)
        for (i, (text, role)) in lines.prefix(h - 2).enumerated() {
            b.put(String(g.v), x: x, y: y + 1 + i, role: .border)
            b.put(text, x: x + 2, y: y + 1 + i, role: role, maxWidth: inner - 2)
            b.put(String(g.v), x: x + inner + 1, y: y + 1 + i, role: .border)
        }
        b.put(String(g.bl) + String(repeating: g.h, count: inner) + String(g.br), x: x, y: y + h - 1, role: .border)
    }

    static func modal(_ b: inout ScreenBuffer, _ m: DeckState.Modal, _ s: DeckState, _ g: Glyphs) {
        switch m {
        case .help:
            box(&b, title: "Keys", lines: Keymap.bindings.map { binding in
                let label = s.keyLabels[binding.action].map { "\($0)/" + binding.label } ?? binding.label
                return (label + String(repeating: " ", count: max(1, 10 - label.count)) + binding.help, .modal)
            }
                + [("", .modal), ("Press any key to close.", .dim)], g)
        case .prune(let items):
            box(&b, title: "Prune \(items.count) stale account\(items.count == 1 ? "" : "s")?",
                lines: items.map { ("\($0.username) — \($0.reason)", .stale) }
                    + [("", .modal), ("They go to a quarantine for 30 days (u restores).", .dim), ("y prune · n cancel", .accent)], g)
        case .confirmLogout(_, let user, let offersClear):
            box(&b, title: "Sign out?", lines: [("Sign out \(user) and delete its credentials?", .modal)]
                + (offersClear ? [("The username and preferences are kept unless you clear the registration.", .dim),
                                  ("y sign out · c sign out and clear the registration · n cancel", .accent)]
                               : [("y sign out · n cancel", .accent)]), g)
        case .addAccount(let providers, let selected):
            box(&b, title: "Add an account", lines: providers.enumerated().map { i, p in
                (i == selected ? "▸ \(p)" : "  \(p)", i == selected ? Role.accent : Role.modal)
            } + [("", .modal), ("Enter signs in with the provider's flow · Esc cancels", .dim)], g)
        case let .deviceCode(_, code, uri, expiresAt, note):
            var lines: [(String, Role)] = [("Open this page on any device:", .modal), (uri, .accent), ("", .modal),
                                           ("and enter the code:", .modal), ("   \(code)", .header), ("", .modal),
                                           ("The code expires \(ExpiryText.describe(expiresAt, now: s.now)).", .dim)]
            if let note { lines.append((note, .accent)) }
            lines.append(("Waiting… Esc cancels.", .dim))
            // The QR code of the page, when one was encoded and the window has room for it
            // (not with ASCII glyphs: half blocks are its only drawing).
            if !g.ascii, s.qrURI == uri, let qr = s.qrMatrix?.halfBlockLines(),
               lines.count + qr.count + 3 <= b.height - 2, (qr.first?.count ?? 0) + 8 <= b.width {
                lines.insert(contentsOf: [("or scan:", .modal)] + qr.map { ($0, Role.modal) } + [("", .modal)], at: 6)
            }
            box(&b, title: "Sign in", lines: lines, g)
        case .browser(_, let url):
            box(&b, title: "Sign in in your browser", lines: [("If no browser opened, open this URL:", .modal), (url, .accent),
                                                              ("", .modal), ("Waiting for the sign-in… o opens it again · Esc cancels.", .dim)], g)
        }
    }
}
