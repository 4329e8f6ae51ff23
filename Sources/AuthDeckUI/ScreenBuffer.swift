/// An off-screen grid of cells that rendering writes into and the terminal backend diffs.
///
/// Columns are display cells: a wide (CJK) character occupies two, the second marked as a
/// continuation, so layout code can count cells without knowing about widths.
public struct ScreenBuffer: Equatable, Sendable {
    public struct Cell: Equatable, Sendable {
        public var character: Character
        /// True for the right half of a wide character.
        public var continuation: Bool
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: Cell(character: " ", continuation: false), count: self.width * self.height)
    }

    /// Writes `text` at (x, y), clipped at the right edge; returns the column after it.
    /// A wide character that would straddle the edge is not drawn half.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int) -> Int {
        guard y >= 0, y < height else { return x }
        var col = x
        for ch in text {
            let w = CharacterWidth.of(ch)
            if w == 0 { continue }
            guard col >= 0, col + w <= width else { break }
            cells[y * width + col] = Cell(character: ch, continuation: false)
            if w == 2 { cells[y * width + col + 1] = Cell(character: " ", continuation: true) }
            col += w
        }
        return col
    }

    /// Row `y` as text, wide characters once each (what `tmux capture-pane` shows).
    public func line(_ y: Int) -> String {
        String(cells[y * width..<(y + 1) * width].filter { !$0.continuation }.map(\.character))
    }
}
