/// The account table's columns at one width, sized from what they hold: each column as wide
/// as its longest value up to a cap, headers never cut; when the width is short, columns are
/// served in order of priority (the username first, the display name last) and columns of
/// one priority share what is left evenly.
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
        // An optional column only when the columns served before it (and the optional ones
        // already kept) fit whole beside it (up to 14 cells of it), the ones served after it
        // at their least. Decided in order of priority.
        var dropped = Set<String>()
        for optional in needs.filter(\.optional).sorted(by: { $0.priority < $1.priority }) {
            let others = needs.filter { $0.key != optional.key && !dropped.contains($0.key) && (!$0.optional || $0.priority < optional.priority) }
            let room = width - others.reduce(0) { $0 + ($1.priority <= optional.priority ? $1.most : $1.least) }
            if room < min(optional.most, 14) { dropped.insert(optional.key) }
        }
        let shown = needs.filter { !dropped.contains($0.key) }
        var widths = shown.map(\.least)
        var left = width - widths.reduce(0, +)
        // By priority; within one, even shares again and again to the columns still short.
        for level in Set(shown.map(\.priority)).sorted() {
            while left > 0 {
                let short = shown.indices.filter { shown[$0].priority == level && widths[$0] < shown[$0].most }
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
