/// Orders strings by their UTF-8 bytes, as SQLite's BINARY collation does.
///
/// Why not String's `<`: it compares by Unicode canonical equivalence, which is slower and
/// could order some spellings differently from the store's SQL; listings and the deck sort
/// tens of thousands of names.
public enum BinaryOrder {
    /// Negative, zero or positive as `x` sorts before, with or after `y`; on a common prefix
    /// the shorter first.
    public static func compare(_ x: String, _ y: String) -> Int {
        let fast = x.utf8.withContiguousStorageIfAvailable { a in
            y.utf8.withContiguousStorageIfAvailable { b in
                for i in 0..<min(a.count, b.count) where a[i] != b[i] { return Int(a[i]) - Int(b[i]) }
                return a.count - b.count
            }
        }
        if let order = fast ?? nil { return order }
        return x.utf8.elementsEqual(y.utf8) ? 0 : (x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1)
    }

    public static func precedes(_ x: String, _ y: String) -> Bool { compare(x, y) < 0 }
}
