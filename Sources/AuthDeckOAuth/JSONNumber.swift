/// A JSON number as it was written (`1700000000`, `1.50`, `1e3`), read as an integer or a
/// double on demand.
///
/// Why the text: an id or an `expires_in` stays exact whatever its size (a `Double` rounds past
/// 2^53), and a file rewritten after an edit repeats each number exactly as it read it.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text, valid by JSON's grammar (`JSONParser` checks it before making one).
    public let text: String

    init(validatedText text: String) { self.text = text }

    /// Makes a number from an integer (for values built in code, such as a test's claims).
    public init(_ value: Int64) { text = String(value) }

    public var description: String { text }

    /// True when the text has neither a fraction nor an exponent.
    public var isIntegerLiteral: Bool { !text.contains { $0 == "." || $0 == "e" || $0 == "E" } }

    /// The value as a double (the nearest one; JSON's grammar is a subset of Swift's).
    public var double: Double { Double(text) ?? .nan }

    /// The value as a whole number, when it is one and below 9e15 in size: an integer literal
    /// read exactly, or a fraction or exponent that is whole (`3600.0`, `3.6e3`). Larger values
    /// are refused rather than guessed at: a time or a count that large is a mistake.
    public var integer: Int64? {
        if isIntegerLiteral, let n = Int64(text) { return abs(n) < Self.limit ? n : nil }
        let d = double
        guard d.rounded() == d, abs(d) < Double(Self.limit) else { return nil }
        return Int64(d)
    }

    /// The number as text for display: an integer as its digits, anything else as the double
    /// it denotes (`1e3` shows as `1000.0`, `1.50` as `1.5`): Foundation's `NSNumber` text, the
    /// form claims already in stores have, so a claim compares equal whoever read it.
    public var displayText: String {
        if isIntegerLiteral {
            if let n = Int64(text) { return String(n) }
            if let n = UInt64(text) { return String(n) }
            return text
        }
        return double.description
    }

    static let limit: Int64 = 9_000_000_000_000_000
}
