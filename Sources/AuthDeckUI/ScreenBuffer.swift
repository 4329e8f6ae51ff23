import AuthDeckLook

/// An off-screen grid of cells that rendering writes into and the terminal backend diffs.
///
/// Columns are display cells: a wide (CJK) character occupies two, the second marked as a
/// continuation, so layout code can count cells without knowing about widths.
public struct ScreenBuffer: Equatable, Sendable {
    public struct Cell: Equatable, Sendable {
        public var character: Character
        /// True for the right half of a wide character.
        public var continuation: Bool
        public var role: Role = .normal
    }

    public let width: Int
    public let height: Int
    public internal(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: Cell(character: " ", continuation: false, role: .normal), count: self.width * self.height)
    }

    /// Writes `text` at (x, y), clipped at the right edge; returns the column after it.
    /// A wide character that would straddle the edge is not drawn half.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, role: Role = .normal, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        var col = x
        let limit = min(width, maxWidth.map { x + $0 } ?? width)
        for ch in text {
            let w = CharacterWidth.of(ch)
            if w == 0 { continue }
            guard col >= 0, col + w <= limit else { break }
            vacate(x: col, y: y)
            vacate(x: col + w - 1, y: y)
            cells[y * width + col] = Cell(character: ch, continuation: false, role: role)
            if w == 2 { cells[y * width + col + 1] = Cell(character: " ", continuation: true, role: role) }
            col += w
        }
        return col
    }

    /// Paints `role` over a span of a row (selection bars), keeping the characters.
    public mutating func paint(_ role: Role, x: Int, y: Int, width w: Int) {
        guard y >= 0, y < height else { return }
        for col in max(0, x)..<min(width, x + w) { cells[y * width + col].role = role }
    }

    /// Clears a rectangle to spaces of `role`.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, role: Role = .normal) {
        for row in max(0, y)..<min(height, y + h) {
            guard max(0, x) < min(width, x + w) else { continue }
            vacate(x: max(0, x), y: row)
            vacate(x: min(width, x + w) - 1, y: row)
            for col in max(0, x)..<min(width, x + w) { cells[row * width + col] = Cell(character: " ", continuation: false, role: role) }
        }
    }

    /// Makes (x, y) free to overwrite: the other half of a wide character there becomes a
    /// space. Why: a window edge or text written over one half left the other dangling — a
    /// wide character with no room, or a continuation with no character — and the terminal
    /// showed the row shifted, with debris after the window closed.
    mutating func vacate(x: Int, y: Int) {
        let i = y * width + x
        if cells[i].continuation {
            if x > 0 { cells[i - 1].character = " " }
            cells[i].continuation = false
            cells[i].character = " "
        } else if x + 1 < width, cells[i + 1].continuation {
            cells[i + 1].continuation = false
            cells[i + 1].character = " "
        }
    }

    public func cell(x: Int, y: Int) -> Cell { cells[y * width + x] }

    /// The whole screen as text, one line per row (snapshot files are this).
    public var text: String { (0..<height).map(line).joined(separator: "\n") }

    /// Row `y` as text, wide characters once each (what `tmux capture-pane` shows).
    public func line(_ y: Int) -> String {
        String(cells[y * width..<(y + 1) * width].filter { !$0.continuation }.map(\.character))
    }
}
