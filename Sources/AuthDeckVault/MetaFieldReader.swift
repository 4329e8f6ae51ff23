/// The sealed meta records' stored form (`FrontRecord`, `StatusFastPath`): length-prefixed
/// fields, `<UTF-8 length>:<text>`, so no text in a URL, account or username can be read as
/// another field; `field` writes one, the reader takes them off the front of a byte string.
struct MetaFieldReader {
    let bytes: [UInt8]
    var at = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    /// One field of `text`, as the reader takes it back.
    static func field(_ text: String) -> String { "\(text.utf8.count):\(text)" }

    var atEnd: Bool { at == bytes.count }

    mutating func take() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func field() -> String? {
        var length = 0, digits = 0
        while true {
            guard let byte = take() else { return nil }
            if byte == UInt8(ascii: ":"), digits > 0 { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 8 else { return nil }
            length = length * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard bytes.count - at >= length else { return nil }
        defer { at += length }
        return String(decoding: bytes[at..<at + length], as: UTF8.self)
    }

    /// A field holding a non-negative decimal number.
    mutating func number() -> Int64? {
        guard let text = field(), !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(text)
    }
}
