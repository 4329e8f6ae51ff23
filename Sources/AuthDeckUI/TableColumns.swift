/// The account table's columns at one width, sized from what they hold: each column as wide
/// as its longest value up to a cap, headers never cut; when the width is short, columns are
/// served in order of priority (the username first, the display name last) and columns of
/// one priority share what is left evenly; an optional column (REALM, LAST USED) is cut down
/// to its title before it is dropped, and dropped before another column is cut.
///
/// Why: fixed shares of the width would cut every username at 80 columns while the time
/// columns kept blank space, and cut REALM at 200 columns beside an empty NAME.
public struct TableColumns: Equatable, Sendable {
    public struct Column: Equatable, Sendable {
        /// Which column (`PROVIDER`…), whatever its title shows beside it.
        public let key: String
        public let title: String
        /// Cells including the one-cell gap after it.
        public var width: Int
    }

    public var columns: [Column]

    /// What one column asks for: its title and the widest value it holds (cells), capped.
    public struct Need: Sendable {
        let key: String
        let title: String
        let content: Int
        let cap: Int
        /// Dropped (REALM) rather than squeezed when the others need the room.
        let optional: Bool
        /// Lower is served first.
        let priority: Int

        public init(_ key: String, title: String? = nil, content: Int, cap: Int = 48, optional: Bool = false, priority: Int = 0) {
            self.priority = priority
            self.key = key
            self.title = title ?? key
            self.content = content
            self.cap = cap
            self.optional = optional
        }

        var least: Int { CharacterWidth.of(title) + 1 }
        var most: Int { max(least, min(content, cap) + 1) }
    }

    /// Columns for `needs` in `width` cells.
    public init(_ needs: [Need], width: Int) {
        // An optional column only when every other column fits whole beside it, the optional
        // ones at their least (their titles: their values are cut with `…` to that), and it at
        // its least. Decided in order of priority: LAST USED before REALM, so it goes first.
        // Why its least, not a share: asking for 14 cells dropped REALM whole at 120 columns
        // once EXPIRES held "expired 17m 19s ago", where a cut REALM fitted beside whole columns.
        var dropped = Set<String>()
        for optional in needs.filter(\.optional).sorted(by: { $0.priority < $1.priority }) {
            let others = needs.filter { $0.key != optional.key && !dropped.contains($0.key) }
            let room = width - others.reduce(0) { $0 + ($1.optional ? $1.least : $1.most) }
            if room < optional.least { dropped.insert(optional.key) }
        }
        let shown = needs.filter { !dropped.contains($0.key) }
        var widths = shown.map(\.least)
        var left = width - widths.reduce(0, +)
        // By priority, the optional columns after all others (they were kept on that term);
        // within one, even shares again and again to the columns still short.
        func level(_ n: Need) -> Int { n.optional ? Int.max / 2 + n.priority : n.priority }
        for current in Set(shown.map(level)).sorted() {
            while left > 0 {
                let short = shown.indices.filter { level(shown[$0]) == current && widths[$0] < shown[$0].most }
                guard !short.isEmpty else { break }
                let share = max(1, left / short.count)
                for i in short where left > 0 {
                    let add = min(share, shown[i].most - widths[i], left)
                    widths[i] += add
                    left -= add
                }
            }
        }
        columns = zip(shown, widths).map { Column(key: $0.key, title: $0.title, width: $1) }
    }

    public func width(of key: String) -> Int? { columns.first { $0.key == key }?.width }
}
