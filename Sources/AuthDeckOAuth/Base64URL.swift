/// Base64url without padding (RFC 4648 §5), as JWTs, PKCE and MSAL's client_info use it.
public enum Base64URL {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `byteCount` random bytes, encoded: for PKCE verifiers, `state` and `nonce`.
    public static func random(byteCount: Int) -> String {
        var rng = SystemRandomNumberGenerator()
        return encode((0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64url, tolerating padding and the standard alphabet's `+` and `/`
    /// (some providers mix them up); nil on any other character or a bad length.
    public static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(c - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(c - 71)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(c + 4)
            case UInt8(ascii: "-"), UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "_"), UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        if values.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let chunk = values[i..<min(i + 4, values.count)]
            var n: UInt32 = 0
            for (k, v) in chunk.enumerated() { n |= UInt32(v) << (18 - 6 * k) }
            out.append(UInt8(n >> 16 & 0xFF))
            if chunk.count > 2 { out.append(UInt8(n >> 8 & 0xFF)) }
            if chunk.count > 3 { out.append(UInt8(n & 0xFF)) }
            i += 4
        }
        return out
    }
}
