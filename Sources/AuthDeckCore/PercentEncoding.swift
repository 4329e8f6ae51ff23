/// `%XX` escapes in URLs, decoded as git's `url_decode` does.
///
/// Why in Core: which `[[credential]]` route answers a URL depends on what its escapes mean
/// (`%2e%2e` is `..` to a server), and both binaries must read them the same way.
public enum PercentEncoding {
    /// `text` with each `%` and two hex digits replaced by that byte (a `%` without two hex
    /// digits stays as it is, `+` is not a space); bytes that are not UTF-8 read as U+FFFD.
    public static func decoded(_ text: some StringProtocol) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
