import Foundation

extension JSONValue {
    /// The value as compact JSON with object keys sorted, byte for byte as
    /// `JSONSerialization.data(withJSONObject:options: [.sortedKeys])` writes it on Linux
    /// (keys in its order, `/` escaped as `\/`), numbers as they were read.
    ///
    /// Why that writer's bytes: a cache file authdeck rewrote before is rewritten identically,
    /// and a structured extra stored as text (OAM's `oracle_aux_tokens`) repeats as it was kept.
    public var sortedText: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.text.utf8)
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, element) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, key) in o.keys.sorted(by: Self.keyOrder).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                o[key]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `JSONSerialization`'s key order for `.sortedKeys`: case-insensitive, digit runs by value
    /// (`a2` before `a10`), ties broken so that the order is total.
    static func keyOrder(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex,
                  locale: Locale(identifier: "")) == .orderedAscending
    }

    private static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "/"): out.append(contentsOf: #"\/"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
