/// A parsed JSON object with strict, typed field access (no silent coercion).
public struct JSONObject: Sendable, Equatable {
    public let fields: [String: JSONValue]

    public init(_ fields: [String: JSONValue]) { self.fields = fields }

    /// Parses bytes that must hold one JSON object (`JSONParser`'s rules and limits); nil for
    /// anything else.
    public init?(bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes), let object = value.object else { return nil }
        fields = object
    }

    public func has(_ key: String) -> Bool { fields[key].map { !$0.isNull } ?? false }

    public func string(_ key: String) -> String? { fields[key]?.string }

    /// An integer that is a JSON number (not a boolean; whole; below 9e15 in size).
    public func integer(_ key: String) -> Int64? { fields[key]?.number?.integer }

    /// A JSON boolean (the numbers 0 and 1 are not booleans).
    public func bool(_ key: String) -> Bool? { fields[key]?.bool }

    public func object(_ key: String) -> JSONObject? { fields[key]?.object.map(JSONObject.init) }

    public func array(_ key: String) -> [JSONValue]? { fields[key]?.array }

    /// An array whose elements are all strings (nil for anything else).
    public func strings(_ key: String) -> [String]? {
        guard let array = array(key) else { return nil }
        let strings = array.compactMap(\.string)
        return strings.count == array.count ? strings : nil
    }

    /// A short description of a field's JSON type, for error messages.
    public func typeName(_ key: String) -> String { fields[key]?.typeName ?? "missing" }

    /// Every object-valued field as compact JSON text (keys sorted), for a provider that
    /// hands back structured extras a later request repeats (OAM's `oracle_aux_tokens`).
    public var objectTexts: [String: String] {
        var out: [String: String] = [:]
        for (k, v) in fields where v.object != nil { out[k] = String(decoding: v.sortedText, as: UTF8.self) }
        return out
    }

    /// Every scalar field as text (numbers and booleans included), for claim display.
    public var scalarStrings: [String: String] {
        var out: [String: String] = [:]
        for (k, v) in fields {
            switch v {
            case .string(let s): out[k] = s
            case .number(let n): out[k] = n.displayText
            case .bool(let b): out[k] = b ? "true" : "false"
            case .array(let a): out[k] = a.compactMap(\.string).joined(separator: " ")
            case .object, .null: continue
            }
        }
        return out
    }
}
