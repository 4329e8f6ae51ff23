import Foundation

/// A parsed JSON object with strict, typed field access (no silent coercion).
// @unchecked: `fields` is JSONSerialization's `[String: Any]` (Any is not Sendable); immutable.
public struct JSONObject: @unchecked Sendable {
    public let fields: [String: Any]

    public init(_ fields: [String: Any]) { self.fields = fields }

    /// Parses bytes that must hold one JSON object; nil for anything else.
    public init?(bytes: [UInt8]) {
        guard !bytes.isEmpty,
              let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]),
              let dict = object as? [String: Any] else { return nil }
        fields = dict
    }

    public func has(_ key: String) -> Bool { fields[key] != nil && !(fields[key] is NSNull) }

    public func string(_ key: String) -> String? { fields[key] as? String }

    /// An integer that is a JSON number (not a boolean, not a fraction).
    public func integer(_ key: String) -> Int64? {
        guard let n = fields[key] as? NSNumber, !Self.isBool(n) else { return nil }
        let d = n.doubleValue
        guard d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return n.int64Value
    }

    public func object(_ key: String) -> JSONObject? { (fields[key] as? [String: Any]).map(JSONObject.init) }

    public func array(_ key: String) -> [Any]? { fields[key] as? [Any] }

    /// A short description of a field's JSON type, for error messages.
    public func typeName(_ key: String) -> String {
        switch fields[key] {
        case nil, is NSNull: return "missing"
        case is String: return "a string"
        case let n as NSNumber: return Self.isBool(n) ? "a boolean" : "a number"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "something else"
        }
    }

    /// Every object-valued field as compact JSON text (keys sorted), for a provider that
    /// hands back structured extras a later request repeats (OAM's `oracle_aux_tokens`).
    public var objectTexts: [String: String] {
        var out: [String: String] = [:]
        for (k, v) in fields where v is [String: Any] {
            if let data = try? JSONSerialization.data(withJSONObject: v, options: [.sortedKeys]) {
                out[k] = String(decoding: data, as: UTF8.self)
            }
        }
        return out
    }

    /// Every scalar field as text (numbers and booleans included), for claim display.
    public var scalarStrings: [String: String] {
        var out: [String: String] = [:]
        for (k, v) in fields {
            switch v {
            case let s as String: out[k] = s
            case let n as NSNumber: out[k] = Self.isBool(n) ? (n.boolValue ? "true" : "false") : n.stringValue
            case let a as [Any]: out[k] = a.compactMap { $0 as? String }.joined(separator: " ")
            default: continue
            }
        }
        return out
    }

    /// JSON booleans arrive as NSNumber too; on Linux as instances of a subclass of their own
    /// (`__NSCFBoolean`), the only reliable tell (`is Bool` is true for 0 and 1 as well).
    public static func isBool(_ n: NSNumber) -> Bool {
        ObjectIdentifier(type(of: n)) == booleanClass
    }

    /// The class Foundation gives JSON's `true` and `false` (a subclass of NSNumber). Compared by
    /// identity: the type's name, read through reflection, cost a scan of every protocol
    /// conformance in the binary on each renewal's first call.
    static let booleanClass: ObjectIdentifier = {
        let parsed = try? JSONSerialization.jsonObject(with: Data("[true]".utf8)) as? [Any]
        return ObjectIdentifier(type(of: (parsed?.first as? NSNumber) ?? NSNumber(value: true)))
    }()
}
