import AuthDeckCore

/// Writes JSON straight into a byte buffer, in exactly the form `Output.json` gives
/// (JSONEncoder's pretty printing, sorted keys, slashes unescaped).
///
/// Why: `accounts --json` over 10,000 accounts spent a third of its time in JSONEncoder's
/// Codable machinery, and then still half of it appending to a `[UInt8]` byte by byte and
/// slice by slice; bytes now go into a raw buffer (`ByteBuffer`) with one capacity check per
/// piece. The caller writes object keys in sorted order itself; a test checks the bytes against
/// JSONEncoder's for every field, so an out-of-order key fails there.
struct JSONWriter {
    private let buffer: ByteBuffer
    private var depth = 0
    /// Per open container: whether nothing has been written into it yet.
    private var empty: [Bool] = []
    private var afterKey = false

    init(capacity: Int = 1 << 16) { buffer = ByteBuffer(capacity: capacity) }

    /// How many bytes are written and not yet drained.
    var count: Int { buffer.count }

    mutating func beginObject() { begin(0x7B) }
    mutating func endObject() { end(0x7D) }
    mutating func beginArray() { begin(0x5B) }
    mutating func endArray() { end(0x5D) }

    /// An object key known when the program is built: plain ASCII, written without escaping.
    mutating func key(_ name: StaticString) {
        separate()
        buffer.append(0x22)
        buffer.append(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        buffer.append(0x22, 0x20, 0x3A, 0x20)  // `" : `
        afterKey = true
    }

    /// Any other object key (claim names), escaped as strings are.
    mutating func key(named name: String) {
        separate()
        quote(name)
        buffer.append(0x20, 0x3A, 0x20)
        afterKey = true
    }

    mutating func string(_ s: String) {
        separate()
        quote(s)
    }

    mutating func int(_ n: Int64) {
        separate()
        var digits = String(n)
        digits.withUTF8 { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    mutating func bool(_ b: Bool) {
        separate()
        let text: StaticString = b ? "true" : "false"
        buffer.append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `"name" : "value"`, or nothing when `value` is nil (as `encodeIfPresent` does).
    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// `"name" : "2026-11-22T11:27:20Z"`, or nothing when `instant` is nil; the date's digits
    /// go straight into the buffer.
    mutating func field(_ name: StaticString, _ instant: Instant?) {
        guard let instant else { return }
        key(name)
        separate()  // the value's turn, as `string` would take it
        buffer.append(0x22)
        instant.withISO8601 { buffer.append($0) }
        buffer.append(0x22)
    }

    /// Ends the document with its final newline.
    mutating func finishLine() { buffer.append(0x0A) }

    /// Hands what is written so far to `sink` and starts the buffer again (its capacity kept),
    /// so a long document goes out in pieces.
    mutating func drain(_ sink: (UnsafeRawBufferPointer) -> Void) {
        guard buffer.count > 0 else { return }
        buffer.withBytes(sink)
        buffer.removeAll()
    }

    private mutating func begin(_ open: UInt8) {
        separate()
        buffer.append(open)
        empty.append(true)
        depth += 1
    }

    private mutating func end(_ close: UInt8) {
        depth -= 1
        if empty.removeLast() { buffer.append(0x0A) }
        newline()
        buffer.append(close)
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
        } else {
            buffer.append(0x2C)
        }
        newline()
    }

    /// A newline and the indentation of `depth`, copied from one prepared run of spaces.
    private mutating func newline() {
        buffer.append(0x0A)
        var spaces = depth * 2
        while spaces > 0 {
            let n = min(spaces, Self.spaces.utf8CodeUnitCount)
            buffer.append(UnsafeRawBufferPointer(start: Self.spaces.utf8Start, count: n))
            spaces -= n
        }
    }

    static let spaces: StaticString = "                                "
    static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    /// Per byte value: whether a JSON string must escape it (controls, `"` and `\`).
    static let escaped: [Bool] = (0...255).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }

    /// A JSON string: `"` and `\` escaped, control characters as `\b \t \n \f \r` or
    /// `\u00xx`; everything else (non-ASCII too) as is.
    private mutating func quote(_ s: String) {
        buffer.append(0x22)
        var s = s
        s.withUTF8 { utf8 in
            // Runs of plain bytes are copied whole; only the bytes that need escaping are not.
            var start = 0
            for i in utf8.indices where Self.escaped[Int(utf8[i])] {
                let byte = utf8[i]
                buffer.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start..<i]))
                start = i + 1
                switch byte {
                case 0x22: buffer.append(0x5C, 0x22)
                case 0x5C: buffer.append(0x5C, 0x5C)
                case 0x0A: buffer.append(0x5C, 0x6E)
                case 0x09: buffer.append(0x5C, 0x74)
                case 0x0D: buffer.append(0x5C, 0x72)
                case 0x08: buffer.append(0x5C, 0x62)
                case 0x0C: buffer.append(0x5C, 0x66)
                default:
                    buffer.append(0x5C, 0x75, 0x30, 0x30)
                    buffer.append(Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)])
                }
            }
            buffer.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start...]))
        }
        buffer.append(0x22)
    }
}
