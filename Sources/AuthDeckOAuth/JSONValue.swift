/// One JSON value read from outside (a provider's answer, a JWT's parts, another tool's cache
/// file), in plain `Sendable` Swift.
///
/// Why not `JSONSerialization`'s `Any`: `Any` is not `Sendable`, so every type holding an answer
/// had to opt out of the concurrency checks, and a JSON boolean could only be told from the
/// numbers 0 and 1 by the class Foundation happened to give it. Numbers keep the text they were
/// written as (`JSONNumber`), so an integer is exact and a rewritten file repeats what it read.
public indirect enum JSONValue: Sendable, Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(JSONNumber)
    case bool(Bool)
    case null

    /// The string, when this is one.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The members, when this is an object.
    public var object: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements, when this is an array.
    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The number, when this is one (never a boolean).
    public var number: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The boolean, when this is `true` or `false` (never the numbers 0 or 1).
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// True for JSON's `null`.
    public var isNull: Bool { self == .null }

    /// A short description of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "missing"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
