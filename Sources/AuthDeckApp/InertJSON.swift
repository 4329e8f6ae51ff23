import AuthDeckCore
import AuthDeckOAuth

/// A JSON value read from an untrusted document, every string (keys too) made inert for a
/// terminal. Why: `token --decode` prints claims an issuer chose; an escape sequence or bidi
/// override in a claim must not reach the reader's terminal as a live control.
public indirect enum InertJSON: Encodable, Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null
    case array([InertJSON])
    case object([String: InertJSON])

    /// Converts a parsed value: booleans stay booleans, whole numbers within 9e15 stay
    /// integers (a NumericDate `exp` must not print as 1.7e9).
    public init(_ value: JSONValue) {
        switch value {
        case .string(let s): self = .string(TerminalText.inert(s))
        case .number(let n): self = n.integer.map(InertJSON.integer) ?? .number(n.double)
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        case .array(let a): self = .array(a.map(InertJSON.init))
        case .object(let o):
            self = .object(Dictionary(o.map { (TerminalText.inert($0.key), InertJSON($0.value)) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .integer(let n): try c.encode(n)
        case .number(let d): try c.encode(d)
        case .bool(let b): try c.encode(b)
        case .null: try c.encodeNil()
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}
