import AuthDeckCore
import AuthDeckLook

/// Draws a `DeckState` into a `ScreenBuffer`: pure, so every screen can be tested as text.
public enum DeckRenderer {
    /// Box and badge characters: Unicode, or ASCII for terminals without a UTF-8 locale.
    public struct Glyphs: Sendable {
        let h, v, tl, tr, bl, br: Character
        let spinner: [Character]
        /// The state's badge; its ASCII form is `AsciiForm`'s, so the two sets never disagree.
        func badge(_ s: AccountState) -> String {
            let unicode: Character
            switch s {
            case .signedIn: unicode = "●"
            case .expiringSoon, .renewDue: unicode = "◐"
            case .expired: unicode = "○"
            case .needsSignIn: unicode = "▲"
            case .stale: unicode = "✕"
            case .failed: unicode = "■"
            }
            return String(ascii ? AsciiForm.of(unicode) : unicode)
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
    /// With ASCII glyphs the cut is `...`: the one-cell `>` made `>06/authdeck.db` (LANG=C trial).
    static func storeLabel(_ s: DeckState, width: Int, _ g: Glyphs) -> String {
        let full = " \(s.keySource) · \(s.storePath) "
        guard CharacterWidth.of(full) > width else { return full }
        let cut = g.ascii ? "..." : "…"
        let budget = width - CharacterWidth.of(" \(s.keySource) · \(cut) ")
        guard budget >= 8 else { return TextFit.cut(" \(s.keySource) ", width) }
        var tail = ""
        for ch in s.storePath.reversed() {
            guard CharacterWidth.of(tail) + CharacterWidth.of(ch) <= budget else { break }
            tail.insert(ch, at: tail.startIndex)
        }
        return " \(s.keySource) · \(cut)\(tail) "
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
        x = b.put(storeLabel(s, width: storeWidth, g), x: x, y: 0, role: .header, maxWidth: storeWidth)
        for (text, sample) in counts {
            guard x + CharacterWidth.of(text) < clockX else { break }
            x = b.put(text, x: x, y: 0, role: Role.of(sample))
        }
        b.put(clock, x: clockX, y: 0, role: .header)
        hline(&b, y: 1, x: 0, width: b.width, g)
    }

    /// The header's count of each state some account is in, in the longest form that fits
    /// them all in `room` columns: full labels, short labels, then badges and numbers alone.
    /// Why: fitting full labels one by one would drop the last states — stale, failed, needs
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
        case "renew_due": return .renewDue
        case "expired": return .expired(renewable: false)
        case "needs_sign_in": return .needsSignIn(reason: "")
        case "failed": return .failed(reason: "")
        default: return .stale(reason: .unused(days: 90, limit: .days(90)))
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
            let end = b.put(TextFit.cut(p.id, max(1, w - 15 - count.count)), x: 3, y: y, maxWidth: max(1, w - 15 - count.count))
            b.put(count, x: end, y: y, maxWidth: w - 12 - end)
            b.put(p.kind.label + (p.dynamicClient ? "·dyn" : ""), x: w - 11, y: y, role: .dim, maxWidth: 10)
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

    /// The table's columns for the rows in the window (`TableColumns`), the sort column's
    /// title marked.
    static func columns(_ s: DeckState, _ window: [DeckRow], width: Int, _ g: Glyphs) -> TableColumns {
        func widest(_ text: (DeckRow) -> String) -> Int { window.reduce(0) { max($0, CharacterWidth.of(text($1))) } }
        let sorted: String
        switch s.sort {
        case .expiry: sorted = "EXPIRES"
        case .provider: sorted = "PROVIDER"
        case .name: sorted = "NAME"
        case .lastUsed: sorted = "LAST USED"
        }
        func need(_ key: String, _ content: Int, cap: Int = 48, optional: Bool = false, _ priority: Int) -> TableColumns.Need {
            TableColumns.Need(key, title: key == sorted ? key + "▾" : key, content: content, cap: cap, optional: optional, priority: priority)
        }
        // What a person came for is served first: the state and the countdown (short, and
        // unreadable when cut: "● signe…"), then who the account is; LAST USED and REALM give
        // way when the rest needs the room (at 60×15 LAST USED kept its ten cells for "never"
        // while the state was cut): cut first, REALM last, and left out, LAST USED first, only
        // when not even their titles fit beside the others whole.
        return TableColumns([
            need("PROVIDER", widest(\.providerId), cap: 20, 3), need("NAME", widest(\.displayName), cap: 32, 5),
            need("USER", widest { userText($0, s) }, cap: 40, 2), need("REALM", widest(\.realm), cap: 40, optional: true, 6),
            need("STATE", widest { stateText($0, s, g).0 }, 0), need("EXPIRES", widest { expiryText($0, s.now) }, 1),
            need("LAST USED", widest { ExpiryText.ago($0.lastUsed, now: s.now) }, optional: true, 4),
        ], width: width)
    }

    /// A row's USER cell: the username, ` *` for its provider's default account, and ` ⇄` when
    /// some host holds a live credential of it (the agent handed it over; the detail says which).
    static func userText(_ row: DeckRow, _ s: DeckState) -> String {
        var text = row.isDefault ? row.username + " *" : row.username
        if s.handOuts[row.id]?.contains(where: { $0.isLive(at: s.now) }) == true { text += " ⇄" }
        return text
    }

    /// A row's STATE cell and its role: the spinner and what is under way, else the state.
    static func stateText(_ row: DeckRow, _ s: DeckState, _ g: Glyphs) -> (String, Role) {
        if s.busy[row.id] != nil { return (String(g.spinner[s.spinnerPhase % g.spinner.count]) + " " + (s.busy[row.id] ?? ""), .accent) }
        return (g.badge(row.state) + " " + shortLabel(row.state), Role.of(row.state))
    }

    static func expiryText(_ row: DeckRow, _ now: Instant) -> String {
        ExpiryText.describe(row.expiry, now: now, neverExpires: row.neverExpires)
    }

    static func table(_ b: inout ScreenBuffer, _ s: DeckState, _ l: DeckLayout, _ g: Glyphs) {
        let rows = s.visibleRows
        let offset = DeckReducer.scrollOffset(rows: rows, selected: s.selectedRow?.id, visible: l.visibleRowCount)
        let window = Array(rows.dropFirst(offset).prefix(l.visibleRowCount))
        let cols = columns(s, window, width: l.tableWidth - 1, g).columns
        var x = l.tableX + 1
        for col in cols {
            b.put(col.title, x: x, y: l.tableHeaderY, role: s.pane == .accounts ? .accent : .dim, maxWidth: col.width - 1)
            x += col.width
        }
        if rows.isEmpty {
            // With no provider yet, login has nothing to sign in to: say what to do first.
            let empty = s.providers.isEmpty ? "No providers yet: add [[provider]] tables to \(s.configPath ?? "config.toml") (`authdeck providers` says how), or try `authdeck demo`."
                                            : "No accounts yet: press a, or `authdeck login PROVIDER`, to add one."
            let text = s.filter.isEmpty ? empty : "No account matches \"\(s.filter)\"."
            // Wrapped, not cut: at 80 and 120 columns a cut would drop the way out ("or try
            // `authdeck demo`"), the end of the sentence.
            let lines = TextFit.wrap(text, l.tableWidth - 3)
            for (i, line) in lines.prefix(max(1, l.visibleRowCount)).enumerated() {
                b.put(TextFit.cut(line, l.tableWidth - 3), x: l.tableX + 2, y: l.firstRowY + i, role: .dim)
            }
            return
        }
        for (i, row) in window.enumerated() {
            let y = l.firstRowY + i
            var cx = l.tableX + 1
            for col in cols {
                let (text, role): (String, Role)
                switch col.key {
                case "PROVIDER": (text, role) = (row.providerId, .normal)
                case "NAME": (text, role) = (row.displayName, .normal)
                case "USER": (text, role) = (userText(row, s), .normal)
                case "REALM": (text, role) = (row.realm, .dim)
                case "STATE": (text, role) = stateText(row, s, g)
                case "EXPIRES": (text, role) = (expiryText(row, s.now), expiryRole(row, s.now))
                default: (text, role) = (ExpiryText.ago(row.lastUsed, now: s.now), .dim)
                }
                b.put(TextFit.cut(text, col.width - 1), x: cx, y: y, role: role, maxWidth: col.width - 1)
                cx += col.width
            }
            if row.id == s.selectedRow?.id { b.paint(.selection, x: l.tableX, y: y, width: l.tableWidth) }
        }
        // Rows out of the window, above and below it, on the spare row before the detail pane.
        let above = offset, below = rows.count - offset - window.count
        let hints = [above > 0 ? "↑ \(above) more" : nil, below > 0 ? "↓ \(below) more" : nil].compactMap { $0 }
        if !hints.isEmpty { b.put(hints.joined(separator: " · "), x: l.tableX + 2, y: l.detailY - 1, role: .dim, maxWidth: l.tableWidth - 3) }
    }

    static func expiryRole(_ row: DeckRow, _ now: Instant) -> Role {
        guard let e = row.expiry else { return .dim }
        return e <= now ? .expired : (e - now < .minutes(10) ? .expiringSoon : .normal)
    }

    static func detail(_ b: inout ScreenBuffer, _ s: DeckState, _ l: DeckLayout, _ g: Glyphs) {
        hline(&b, y: l.detailY, x: l.tableX, width: l.tableWidth, g)
        guard let row = s.selectedRow else { return }
        b.put(" \(TextFit.cut(row.username, l.tableWidth - 6)) ", x: l.tableX + 2, y: l.detailY, role: .accent)
        let first = row.state == .renewDue
            ? "renew due — expires \(expiryText(row, s.now)), inside the clock-skew margin; the deck renews it (r now)"
            : "\(row.state.label)\(row.state.reason.map { " — \($0)" } ?? "")"
        // Every line wrapped to the pane (later parts indented), as many as fit between the
        // pane's rule and the status line; what does not fit is counted on the last row
        // ("↓ 2 more"), as under the table. Why the room is counted here: the pane's last row
        // is the status line's, and a line drawn there was hidden with no mark (a token line at
        // 80×24, a countdown's wrapped seconds at 60×15).
        let width = l.tableWidth - 3
        let room = l.statusY - l.detailY - 1
        var lines: [(String, Role)] = TextFit.wrap(first, width, indent: 2).map { ($0, Role.of(row.state)) }
        // What the agent handed to hosts, live ones first, right under the provider's line:
        // where the account's tokens are matters more than its recent events when room is short.
        let held = (s.handOuts[row.id] ?? []).sorted { a, b in
            (a.isLive(at: s.now) ? 0 : 1, a.host) < (b.isLive(at: s.now) ? 0 : 1, b.host)
        }
        for (i, line) in row.detail(now: s.now).enumerated() {
            lines += detailLine(line, width).map { ($0, .normal) }
            guard i == 0 else { continue }
            for handOut in held { lines += detailLine(handOut.line(now: s.now), width).map { ($0, handOut.isLive(at: s.now) ? .accent : .dim) } }
        }
        if lines.count > room, room > 0 {
            let rest = lines.count - (room - 1)
            lines = Array(lines.prefix(room - 1)) + [("↓ \(rest) more", .dim)]
        }
        for (i, (line, role)) in lines.enumerated() {
            b.put(line, x: l.tableX + 2, y: l.detailY + 1 + i, role: role, maxWidth: width)
        }
    }

    /// A detail line wrapped to `width`, its end after the last " — " (a countdown: "in 5m 59s",
    /// "expired 3h 05m ago") kept whole on one line when it fits one. Why: wrapped at any
    /// space, "in 5m" ended a line and its seconds began the next.
    static func detailLine(_ line: String, _ width: Int) -> [String] {
        guard CharacterWidth.of(line) > width, let dash = line.ranges(of: " — ").last else {
            return TextFit.wrap(line, width, indent: 2)
        }
        let tail = line[dash.upperBound...]
        guard CharacterWidth.of(String(tail)) <= width - 3 else { return TextFit.wrap(line, width, indent: 2) }
        // The tail's spaces are made unbreakable for the wrap, and given back after it.
        let glued = line[..<dash.upperBound] + tail.replacing(" ", with: "\u{00A0}")
        return TextFit.wrap(String(glued), width, indent: 2).map { $0.replacing("\u{00A0}", with: " ") }
    }

    /// The status line: one line, a message too long for it cut with `…`. Why one line: a
    /// message wrapped over the key hints hid how to get help and how to leave; the whole of a
    /// message about an account stays in its detail pane (the event or last error it records).
    static func status(_ b: inout ScreenBuffer, _ s: DeckState, _ l: DeckLayout, _ g: Glyphs) {
        b.fill(x: 0, y: l.statusY, width: b.width, height: 1, role: .status)
        var text = ""
        if s.editingFilter || !s.filter.isEmpty {
            text = " /\(s.filter)\(s.editingFilter ? "█" : "")"
            if s.editingFilter {
                b.put(TextFit.cut(text, b.width - 1), x: 0, y: l.statusY, role: .status)
                return
            }
        }
        if !s.busy.isEmpty {
            text += " \(g.spinner[s.spinnerPhase % g.spinner.count]) \(s.busy.count) in progress"
        }
        if let m = s.message { text += (text.isEmpty ? " " : " · ") + prose(m, g) }
        b.put(TextFit.cut(text, b.width - 1), x: 0, y: l.statusY, role: .status)
    }

    /// The help bar in the table's order; when it does not fit, other keys give way to `?` and
    /// quit, so a narrow terminal still says how to get help and how to leave.
    static func helpBar(_ b: inout ScreenBuffer, _ s: DeckState, _ l: DeckLayout) {
        var items = Keymap.bindings.filter(\.inBar).map { (action: $0.action, key: s.keymap.label(of: $0), short: $0.short) }
        func width(_ list: [(action: String, key: String, short: String)]) -> Int {
            list.reduce(1) { $0 + CharacterWidth.of($1.key) + CharacterWidth.of($1.short) + 3 }
        }
        while width(items) >= b.width, let i = items.lastIndex(where: { $0.action != "help" && $0.action != "quit" }) {
            items.remove(at: i)
        }
        var x = 1
        for item in items {
            guard x + CharacterWidth.of(item.key) + CharacterWidth.of(item.short) + 3 < b.width else { break }
            x = b.put(item.key, x: x, y: l.helpY, role: .accent)
            x = b.put(" \(item.short)  ", x: x, y: l.helpY, role: .dim)
        }
    }

    /// A window in the middle of the screen: `lines` wrapped to it (cut with "… N more" when
    /// the screen is short) and `footer` (how to answer or close it) always shown.
    /// - Parameter width: the inside width, when the caller laid the lines out for one.
    /// - Parameter unbroken: the index in `lines` of an address a person must copy whole: when
    ///   it does not fit inside the window it is drawn across the screen's full width with no
    ///   border on its rows, so a selection picks up the address and nothing else.
    /// - Parameter indent: how far a wrapped line's later parts are indented (a list's items).
    static func box(_ b: inout ScreenBuffer, title: String, lines: [(String, Role)], footer: [(String, Role)] = [], width: Int? = nil,
                    unbroken: Int? = nil, indent: Int = 0, _ g: Glyphs) {
        let lines = lines.map { (prose($0.0, g), $0.1) }, footer = footer.map { (prose($0.0, g), $0.1) }
        let widest = (lines + footer).map { CharacterWidth.of($0.0) }.max() ?? 0
        let inner = width ?? min(b.width - 6, max(CharacterWidth.of(title) + 4, widest + 2))
        var bare = Set<Int>()
        var body: [(String, Role)] = []
        for (i, line) in lines.enumerated() {
            if i == unbroken, CharacterWidth.of(line.0) > inner - 2 {
                let rows = chunks(line.0, b.width)
                bare.formUnion(body.count..<(body.count + rows.count))
                body += rows.map { ($0, line.1) }
            } else {
                body += TextFit.wrap(line.0, inner - 2, indent: indent).map { ($0, line.1) }
            }
        }
        let foot = footer.flatMap { line in TextFit.wrap(line.0, inner - 2).map { ($0, line.1) } }
        let room = max(1, b.height - 4 - foot.count)
        if body.count > room {
            let rest = body.count - (room - 1)
            body = Array(body.prefix(room - 1)) + [("… \(rest) more", .dim)]
        }
        let all = body + foot
        let h = min(b.height - 2, all.count + 2)
        let x = (b.width - inner - 2) / 2, y = max(1, (b.height - h) / 2)
        b.fill(x: x, y: y, width: inner + 2, height: h, role: .modal)
        b.put(String(g.tl) + String(repeating: g.h, count: inner) + String(g.tr), x: x, y: y, role: .border)
        b.put(" \(TextFit.cut(title, inner - 4)) ", x: x + 2, y: y, role: .accent)
        for (i, (text, role)) in all.prefix(h - 2).enumerated() {
            if bare.contains(i) {
                b.fill(x: 0, y: y + 1 + i, width: b.width, height: 1, role: .modal)
                b.put(text, x: 0, y: y + 1 + i, role: role, maxWidth: b.width)
                continue
            }
            b.put(String(g.v), x: x, y: y + 1 + i, role: .border)
            b.put(TextFit.cut(text, inner - 2), x: x + 2, y: y + 1 + i, role: role, maxWidth: inner - 2)
            b.put(String(g.v), x: x + inner + 1, y: y + 1 + i, role: .border)
        }
        b.put(String(g.bl) + String(repeating: g.h, count: inner) + String(g.br), x: x, y: y + h - 1, role: .border)
    }

    /// `text` in pieces of exactly `width` cells (the last shorter): an address cut anywhere,
    /// never at a space, since it has none.
    static func chunks(_ text: String, _ width: Int) -> [String] {
        var out: [String] = [], line = "", used = 0
        for ch in text {
            let w = CharacterWidth.of(ch)
            if used + w > width {
                out.append(line)
                (line, used) = ("", 0)
            }
            line.append(ch)
            used += w
        }
        return out + [line]
    }

    /// The help window's lines (every key, wrapped to the window) at the state's size.
    public static func helpLines(_ s: DeckState) -> [String] {
        helpEntries(s).flatMap { TextFit.wrap($0, helpWidth(s) - 2, indent: 10) }
    }

    static func helpEntries(_ s: DeckState) -> [String] {
        Keymap.bindings.map { binding in
            let label = s.keymap.label(of: binding)
            return label + String(repeating: " ", count: max(1, 10 - CharacterWidth.of(label))) + binding.help
        }
    }

    /// The help window's inside width: its longest entry's, as far as the screen allows.
    static func helpWidth(_ s: DeckState) -> Int { min(s.width - 6, (helpEntries(s).map(CharacterWidth.of).max() ?? 0) + 2) }

    /// How many of `helpLines` the window shows at once (the rest page).
    public static func helpRows(_ s: DeckState) -> Int { max(1, s.height - 2 - 2 - 2) }

    /// Prose as the glyph set spells it: with ASCII glyphs an ellipsis that ends a word
    /// ("Waiting…") is written "...", so only a cut value ends with the one-cell `>`.
    static func prose(_ text: String, _ g: Glyphs) -> String {
        guard g.ascii, text.contains("…") else { return text }
        var out = text.replacing("… ", with: "... ")
        if out.hasSuffix("…") { out = String(out.dropLast()) + "..." }
        return out
    }

    /// Whom a sign-in window is for: "to PROVIDER" for a new account, else the account's name
    /// (a person with two windows' worth of accounts must know which one the code signs in).
    static func signInSubject(_ id: String, _ s: DeckState) -> String {
        id.hasPrefix("new:") ? "to \(id.dropFirst(4))" : s.accountName(id)
    }

    static func modal(_ b: inout ScreenBuffer, _ m: DeckState.Modal, _ s: DeckState, _ g: Glyphs) {
        switch m {
        case .help:
            let all = helpLines(s), rows = helpRows(s)
            let first = min(s.helpOffset, max(0, all.count - rows))
            let shown = all.dropFirst(first).prefix(rows)
            let close = shown.count == all.count ? "Press any key to close."
                : "↓↑ PgDn PgUp scroll (\(first + 1)–\(first + shown.count) of \(all.count)) · other keys close"
            box(&b, title: "Keys", lines: shown.map { ($0, .modal) }, footer: [("", .modal), (close, .dim)], width: helpWidth(s), g)
        case .prune(let items):
            box(&b, title: "Prune \(items.count) stale account\(items.count == 1 ? "" : "s")?",
                lines: items.map { ("\($0.username) — \($0.reason)", .stale) },
                footer: [("", .modal), (items.count == 1 ? "It goes to the quarantine for 30 days (u restores)." : "They go to the quarantine for 30 days (u restores).", .dim), ("y prune · n cancel", .accent)], indent: 2, g)
        case .confirmLogout(_, let user, let offersClear, let client):
            let kept = client ? "The client registration stays unless you clear it (last account only)."
                : "The username and preferences are kept unless you clear the registration."
            box(&b, title: "Sign out?", lines: [("Sign out \(user) and delete its credentials?", .modal)]
                + (offersClear ? [(kept, .dim)] : []),
                footer: [(offersClear ? "y sign out · c sign out and clear the registration · n cancel" : "y sign out · n cancel", .accent)], g)
        case .addAccount(let providers, let selected):
            box(&b, title: "Add an account", lines: providers.enumerated().map { i, p in
                (i == selected ? "▸ \(p)" : "  \(p)", i == selected ? Role.accent : Role.modal)
            }, footer: [("", .modal), ("Enter signs in with the provider's flow · Esc cancels", .dim)], g)
        case let .deviceCode(id, code, uri, expiresAt, note):
            var lines: [(String, Role)] = [("Open this page on any device:", .modal), (uri, .accent), ("", .modal),
                                           ("and enter the code:", .modal), ("   \(code)", .header), ("", .modal),
                                           ("The code expires \(ExpiryText.describe(expiresAt, now: s.now)).", .dim)]
            if let note { lines.append((note, .accent)) }
            // The QR code of the page, when one was encoded and the window has room for it
            // (not with ASCII glyphs: half blocks are its only drawing).
            if !g.ascii, s.qrURI == uri, let qr = s.qrMatrix?.halfBlockLines(),
               lines.count + 1 + qr.count + 3 <= b.height - 2, (qr.first?.count ?? 0) + 8 <= b.width {
                lines.insert(contentsOf: [("or scan:", .modal)] + qr.map { ($0, Role.modal) } + [("", .modal)], at: 6)
            }
            box(&b, title: "Sign in \(signInSubject(id, s))", lines: lines, footer: [("Waiting… Esc cancels · q quits.", .dim)],
                unbroken: 1, g)
        case .browser(let id, let url):
            box(&b, title: "Sign in \(signInSubject(id, s)) in your browser", lines: [("If no browser opened, open this URL:", .modal), (url, .accent)],
                footer: [("", .modal), ("Waiting for the sign-in… o opens it again · Esc cancels · q quits.", .dim)], unbroken: 1, g)
        case let .password(_, account, typed, note):
            // One dot per character typed, at most a line of them: the count is all it shows.
            let dots = String(repeating: g.ascii ? "*" : "•", count: min(typed.count, 40))
            let said: [(String, Role)] = note.map { [($0, .expired), ("", .modal)] } ?? []
            box(&b, title: "Sign in \(account)", lines: said + [("Password (not shown):", .modal), ("> " + dots, .accent)],
                footer: [("", .modal), ("Enter signs in · Esc cancels", .dim)], g)
        case .agentAsk(let ask):
            agentWindow(&b, ask, s, g)
        }
    }

    /// The agent window: which host asks for which account's credential, for what, through
    /// what; how long it waits; the keys. Labels in a column so the four answers to "who, what,
    /// for what, by what" read down the window, each value wrapped under itself.
    static func agentWindow(_ b: inout ScreenBuffer, _ ask: DeckAgentAsk, _ s: DeckState, _ g: Glyphs) {
        let wait = max(0, (ask.deadline - s.now).seconds)
        var lines: [(String, Role)] = [
            ("host     \(ask.hostName)", .accent), ("account  \(ask.account)", .modal),
            ("for      \(ask.audience.isEmpty ? "(the account's default)" : ask.audience)", .modal), ("client   \(ask.client)", .modal),
            ("", .modal), ("Denied by itself in \(TimeSpan(seconds: wait).compact) unless answered.", .dim),
        ]
        if !s.agentAsks.isEmpty {
            lines.append(("\(s.agentAsks.count) more request\(s.agentAsks.count == 1 ? "" : "s") waiting.", .dim))
        }
        box(&b, title: "A host asks for a credential", lines: lines,
            footer: [("", .modal), (ask.hostClaimed ? "o allow once · d deny" : "o allow once · c allow for this connection · d deny", .accent)],
            indent: 9, g)
    }
}
