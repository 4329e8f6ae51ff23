import Foundation
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

    /// Converts what JSONSerialization gave (`Any`): booleans stay booleans, whole numbers
    /// within Int64 stay integers (a NumericDate `exp` must not print as 1.7e9).
    public init(_ value: Any) {
        switch value {
        case let s as String: self = .string(TerminalText.inert(s))
        case let n as NSNumber:
            if JSONObject.isBool(n) { self = .bool(n.boolValue) }
            else if n.doubleValue.rounded() == n.doubleValue, abs(n.doubleValue) < 9.0e15 { self = .integer(n.int64Value) }
            else { self = .number(n.doubleValue) }
        case let a as [Any]: self = .array(a.map(InertJSON.init))
        case let o as [String: Any]:
            self = .object(Dictionary(o.map { (TerminalText.inert($0.key), InertJSON($0.value)) }, uniquingKeysWith: { a, _ in a }))
        default: self = .null
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
