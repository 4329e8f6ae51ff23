/// Terminal display width of a character: 0, 1 or 2 cells.
///
/// A compact version of the East Asian Wide/Fullwidth ranges, so layout is the same in
/// tests and in the terminal without asking libc.
public enum CharacterWidth {
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    public static func of(_ ch: Character) -> Int {
        guard let scalar = ch.unicodeScalars.first else { return 0 }
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark { return 0 }
        return wideRanges.contains { $0.contains(v) } ? 2 : 1
    }

    /// Display width of a string.
    /// Printable ASCII (most ids, usernames and dates) is one column a byte: counted without
    /// splitting the string into characters, which listings of 100,000 rows notice.
    public static func of(_ s: String) -> Int {
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return s.utf8.count }
        return s.reduce(0) { $0 + of($1) }
    }
}
