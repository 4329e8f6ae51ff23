/// Writes JSON straight into a byte buffer, in exactly the form `Output.json` gives
/// (JSONEncoder's pretty printing, sorted keys, slashes unescaped).
///
/// Why: `accounts --json` over 10,000 accounts spent a third of its time in JSONEncoder's
/// Codable machinery. The caller writes object keys in sorted order itself; a test checks the
/// bytes against JSONEncoder's for every field, so an out-of-order key fails there.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Per open container: whether nothing has been written into it yet.
    private var empty: [Bool] = []
    private var afterKey = false

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func beginObject() { begin(0x7B) }
    mutating func endObject() { end(0x7D) }
    mutating func beginArray() { begin(0x5B) }
    mutating func endArray() { end(0x5D) }

    mutating func key(_ name: String) {
        separate()
        quote(name)
        bytes += [0x20, 0x3A, 0x20]  // " : "
        afterKey = true
    }

    mutating func string(_ s: String) {
        separate()
        quote(s)
    }

    mutating func int(_ n: Int64) {
        separate()
        bytes += String(n).utf8
    }

    mutating func bool(_ b: Bool) {
        separate()
        bytes += (b ? "true" : "false").utf8
    }

    /// `"name" : "value"`, or nothing when `value` is nil (as `encodeIfPresent` does).
    mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// The finished document with its final newline.
    mutating func finish() -> [UInt8] {
        bytes.append(0x0A)
        return bytes
    }

    private mutating func begin(_ open: UInt8) {
        separate()
        bytes.append(open)
        empty.append(true)
        depth += 1
    }

    private mutating func end(_ close: UInt8) {
        depth -= 1
        bytes += empty.removeLast() ? [0x0A, 0x0A] : [0x0A]
        bytes.append(contentsOf: repeatElement(0x20, count: depth * 2))
        bytes.append(close)
    }

    /// Before a key or a value: nothing right after a key; else a comma (unless first) and a new indented line.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard let isEmpty = empty.last else { return }
        if isEmpty {
            empty[empty.count - 1] = false
            bytes.append(0x0A)
        } else {
            bytes += [0x2C, 0x0A]
        }
        bytes.append(contentsOf: repeatElement(0x20, count: depth * 2))
    }

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\` escaped, control characters as `\b \t \n \f \r` or
    /// `\u00xx`; everything else (non-ASCII too) as is.
    private mutating func quote(_ s: String) {
        bytes.append(0x22)
        let utf8 = s.utf8
        if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            bytes += utf8
        } else {
            for byte in utf8 {
                switch byte {
                case 0x22: bytes += [0x5C, 0x22]
                case 0x5C: bytes += [0x5C, 0x5C]
                case 0x0A: bytes += [0x5C, 0x6E]
                case 0x09: bytes += [0x5C, 0x74]
                case 0x0D: bytes += [0x5C, 0x72]
                case 0x08: bytes += [0x5C, 0x62]
                case 0x0C: bytes += [0x5C, 0x66]
                case 0..<0x20: bytes += [0x5C, 0x75, 0x30, 0x30, Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]]
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(0x22)
    }
}
