import AuthDeckCore
import AuthDeckUI

/// Prints rows as aligned columns, measuring display width so CJK names line up.
struct TablePrinter {
    var headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) { self.headers = headers }

    /// Adds a row; every cell is made terminal-safe first.
    mutating func add(_ cells: [String]) {
        rows.append(cells.map(TerminalText.inert))
    }

    func render() -> String {
        let all = [headers] + rows
        var widths = Array(repeating: 0, count: headers.count)
        for row in all {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], CharacterWidth.of(cell))
            }
        }
        return all.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - CharacterWidth.of(cell))
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
