import AuthDeckCore
import AuthDeckLook

/// Everything the deck shows, in one value: `reduce` changes it, `render` draws it.
public struct DeckState: Equatable, Sendable {
    public enum Pane: Equatable, Sendable { case providers, accounts }
    public enum Sort: String, CaseIterable, Sendable { case expiry, provider, name, lastUsed = "last used" }

    /// What covers the deck, if anything.
    public enum Modal: Equatable, Sendable {
        case help
        case prune([StaleItem])
        /// `offersClearRegistration`: `c` also clears a registration; `clientRegistration`: that
        /// registration is the provider's dynamic client (it goes only with the last account),
        /// not OAM's remembered username and preferences.
        case confirmLogout(id: String, username: String, offersClearRegistration: Bool, clientRegistration: Bool = false)
        case addAccount(providers: [String], selected: Int)
        case deviceCode(id: String, userCode: String, uri: String, expiresAt: Instant, note: String?)
        case browser(id: String, url: String)
        /// A password for `account`'s sign-in, typed but never shown; `note`: why it is asked again.
        case password(id: String, account: String, typed: PasswordEntry, note: String?)
        /// A host asks for an account's credential (the open deck is an agent): o, c, d answer.
        case agentAsk(DeckAgentAsk)
    }

    /// A prune candidate as the confirmation modal lists it.
    public struct StaleItem: Equatable, Sendable {
        public var id: String
        public var username: String
        public var reason: String
    }

    public var rows: [DeckRow] {
        get { storedRows }
        set {
            storedRows = newValue
            refreshVisibleRows()
            refreshCounts()
        }
    }
    private var storedRows: [DeckRow] = []

    /// Gives account `id`'s row its recent `events`, in place in `rows` and `visibleRows`.
    /// Why not through `rows`: its setter sorts every row again, and the events are read each
    /// time a row is selected — at 10,000 accounts, milliseconds a keystroke. Events change
    /// neither the order nor the counts.
    public mutating func attach(events: [DeckEvent], to id: String) {
        guard let i = storedRows.firstIndex(where: { $0.id == id }) else { return }
        storedRows[i].details = storedRows[i].details.with(events: events)
        if let j = visibleRows.firstIndex(where: { $0.id == id }) { visibleRows[j] = storedRows[i] }
    }
    public var providers: [DeckProvider] = []
    /// The config file the empty deck's first-run hint names (where the providers go).
    public var configPath: String?
    public var now: Instant
    /// When time alone may change a row's state (`DeckAssessment.changesAt`): the deck rereads
    /// the store then.
    public var reloadAt: Instant?
    /// The selected account; setting it marks it chosen (`selectionChosen`).
    public var selectedID: String? { didSet { selectionChosen = true } }
    /// Whether the selected row was chosen (moved to, clicked, filtered to, acted on) rather
    /// than given by default. Until one is chosen the deck keeps its top row selected as the
    /// rows reorder. Why: the demo opened with
    /// its soonest-expiring row selected, which the deck renewed at once and so moved down the
    /// expiry sort, the selection following it to the seventh row.
    public var selectionChosen = false
    /// The account whose recent events were asked for and not read yet (`DeckReducer.eventsWanted`).
    public var eventsAsked: String?
    public var pane: Pane = .accounts
    public var sort: Sort = .expiry { didSet { refreshVisibleRows() } }
    public var filter = "" { didSet { refreshVisibleRows() } }
    public var editingFilter = false
    public var modal: Modal?
    /// Hosts' requests waiting for the agent window, oldest first: shown one at a time, each
    /// once no other window is open (a key meant for that window must not answer a host).
    public var agentAsks: [DeckAgentAsk] = []
    /// What the agent handed to which host, by account id (the detail pane lists them; a row
    /// some host holds a live one of is marked).
    public var handOuts: [String: [DeckHandOut]] = [:]
    /// Accounts whose sign-in the deck started for a host's request (`agentSignIn`): stopped
    /// when that request stops waiting, unless the person started it.
    public var agentSignIns: Set<String> = []
    /// Operations in flight, by account id (shown with a spinner).
    public var busy: [String: String] = [:]
    /// When an account may be renewed ahead of expiry again, as the renewal pacing said (see
    /// `renewDue`): the back-off is the application's, the deck only keeps the date.
    public var renewNotBefore: [String: Instant] = [:]
    /// The last message for the status line; it goes after `messageLife` (see `tick`).
    public var message: String? { didSet { messageAt = now } }
    /// When `message` was set.
    public var messageAt: Instant?
    /// A result's message ("Signed in x.", "Renewed x.") waiting for the rows that show the
    /// result: said at once, the status line claimed a sign-in for a frame while the row still
    /// read stale. `accountId`: a reread of that account's rows is enough; nil: a whole reload.
    public var heldMessage: HeldMessage?
    public struct HeldMessage: Equatable, Sendable {
        public var text: String
        public var accountId: String?
        public init(text: String, accountId: String?) {
            self.text = text
            self.accountId = accountId
        }
    }
    /// How long a message stays: "Renewed x." an hour later reads as news.
    public static let messageLife = TimeSpan.seconds(30)
    public var storePath: String
    public var keySource: String
    public var themeName: String
    public var themeNames: [String]
    public var quitting = false
    public var spinnerPhase = 0
    public var width = 80
    public var height = 24
    public var selectedProvider = 0
    /// The first line of the help window shown (it pages when the window is short).
    public var helpOffset = 0
    /// Key → command, the user's `[keys]` from config.toml applied (set once by the runtime).
    public var keymap = Keymap.Resolved.standard
    /// The last verification URL encoded as a QR code, and its code.
    public var qrURI: String?
    public var qrMatrix: QRMatrix?

    public init(now: Instant, storePath: String, keySource: String, themeName: String = "default", themeNames: [String] = ["default"]) {
        self.now = now
        self.storePath = storePath
        self.keySource = keySource
        self.themeName = themeName
        self.themeNames = themeNames
    }

    /// The rows the table shows: filtered, then sorted. Kept up to date when rows, filter or
    /// sort change rather than derived on each read. Why: a frame reads it several times, and
    /// sorting every row each time makes a large deck sluggish.
    public private(set) var visibleRows: [DeckRow] = []

    private mutating func refreshVisibleRows() { visibleRows = Self.visible(rows, filter: filter, sort: sort) }

    static func visible(_ rows: [DeckRow], filter: String, sort: Sort) -> [DeckRow] {
        let f = filter.lowercased()
        let shown = f.isEmpty ? rows : rows.filter {
            $0.displayName.lowercased().contains(f) || $0.username.lowercased().contains(f) || $0.providerId.lowercased().contains(f)
                || $0.realm.lowercased().contains(f) || $0.state.label.contains(f)
        }
        // Sorted by index, then gathered. Why: a row is a large value, and moving rows around
        // inside the sort costs more than comparing them.
        let order: [Int]
        switch sort {
        case .expiry, .lastUsed:
            // Integer keys made once: the time, then the id's first 16 bytes. Why: most rows
            // share a time, and comparing their ids as Strings is slow.
            var keys = [TimeKey]()
            keys.reserveCapacity(shown.count)
            for i in shown.indices {
                let time = sort == .expiry ? shown[i].expiry?.secondsSinceEpoch ?? .max
                    : shown[i].lastUsed.map { 0 &- $0.secondsSinceEpoch } ?? .max  // latest first, never used last
                keys.append(TimeKey(time: time, id: shown[i].id, index: i))
            }
            keys.sort { a, b in
                if a.time != b.time { return a.time < b.time }
                if a.id != b.id { return a.id < b.id }
                return shown[a.index].id < shown[b.index].id
            }
            order = keys.map(\.index)
        case .provider:
            // Fields are read in place (`shown[i].id`); binding whole rows copied them on every comparison.
            order = shown.indices.sorted { i, j in
                (shown[i].providerId, shown[i].username, shown[i].id) < (shown[j].providerId, shown[j].username, shown[j].id)
            }
        case .name:
            order = shown.indices.sorted { i, j in
                (shown[i].displayName.lowercased(), shown[i].username, shown[i].id)
                    < (shown[j].displayName.lowercased(), shown[j].username, shown[j].id)
            }
        }
        return order.map { shown[$0] }
    }

    /// A row's place in a sort by time then id, as integers: the time, then the id's first 16
    /// UTF-8 bytes (`Utf8Prefix`); ids equal in those 16 bytes are compared as Strings.
    private struct TimeKey {
        var time: Int64
        var id: Utf8Prefix
        var index: Int

        init(time: Int64, id: String, index: Int) {
            self.time = time
            self.id = Utf8Prefix(id)
            self.index = index
        }
    }

    /// How messages name an account: `provider/username`, or its id when another account of
    /// the provider has the same username — "Renewed taro@contoso.com." named none of three.
    public func accountName(_ id: String) -> String {
        guard let row = rows.first(where: { $0.id == id }) else { return id }
        return Self.name(row, twin: rows.contains { $0.id != id && $0.providerId == row.providerId && $0.username == row.username })
    }

    /// `accountName` of many rows at once (the prune window's list), twins found in one pass.
    public func accountNames(_ chosen: [DeckRow]) -> [String] {
        var seen: [String: Int] = [:]
        for r in rows { seen[r.providerId + "\u{0}" + r.username, default: 0] += 1 }
        return chosen.map { Self.name($0, twin: seen[$0.providerId + "\u{0}" + $0.username, default: 0] > 1) }
    }

    static func name(_ row: DeckRow, twin: Bool) -> String { twin ? row.id : "\(row.providerId)/\(row.username)" }

    public var selectedRow: DeckRow? {
        let visible = visibleRows
        return visible.first { $0.id == selectedID } ?? visible.first
    }

    /// Counts by state key (only the states some row is in), for the header. Kept up to date
    /// with the rows like `visibleRows`. Why: a frame need not count every row by a String key.
    public private(set) var counts: [String: Int] = [:]

    private mutating func refreshCounts() {
        var tally = [Int](repeating: 0, count: AccountState.allKeys.count)
        for i in rows.indices { tally[rows[i].state.keyIndex] += 1 }  // no copy of each row
        counts = Dictionary(uniqueKeysWithValues: zip(AccountState.allKeys, tally).filter { $0.1 > 0 })
    }
}
