import AuthDeckCore

/// Writes JSON straight into a byte buffer, in exactly the form `Output.json` gives
/// (JSONEncoder's pretty printing, sorted keys, slashes unescaped).
///
/// Why: `accounts --json` writes every account; this skips JSONEncoder's Codable machinery and
/// puts each piece into a raw buffer (`ByteBuffer`) with one capacity check, not byte by byte.
/// The caller writes object keys in sorted order itself; a test checks the bytes against
/// JSONEncoder's for every field, so an out-of-order key fails there.
struct JSONWriter {
    private let buffer: ByteBuffer
    private var depth = 0
    /// Bit `d` set: the container opened at depth `d` has nothing in it yet. (Deeper than
    /// 63 never happens here: an account nests four levels.)
    private var emptyAt: UInt64 = 0
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
        let n = name.utf8CodeUnitCount
        let out = buffer.reserve(n + 5)
        out[0] = 0x22
        UnsafeMutableRawPointer(out + 1).copyMemory(from: name.utf8Start, byteCount: n)
        out[n + 1] = 0x22  // `" : `
        out[n + 2] = 0x20
        out[n + 3] = 0x3A
        out[n + 4] = 0x20
        buffer.commit(n + 5)
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
        var magnitude = n.magnitude
        var length = n < 0 ? 1 : 0
        var probe = magnitude
        repeat {
            length += 1
            probe /= 10
        } while probe > 0
        let out = buffer.reserve(length)
        var at = length
        repeat {
            at -= 1
            out[at] = UInt8(truncatingIfNeeded: 48 &+ magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if n < 0 { out[0] = 0x2D }
        buffer.commit(length)
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
        afterKey = false  // the value's turn, as `string` would take it
        quote(value)
    }

    /// `"name" : "2026-11-22T11:27:20Z"`, or nothing when `instant` is nil; the date's digits
    /// go straight into the buffer.
    mutating func field(_ name: StaticString, _ instant: Instant?) {
        guard let instant else { return }
        key(name)
        afterKey = false
        let out = buffer.reserve(22)
        if Self.writeISO8601(instant, to: out + 1) {
            out[0] = 0x22
            out[21] = 0x22
            buffer.commit(22)
        } else {
            quote(instant.iso8601)
        }
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
        precondition(depth < 63, "JSONWriter nests at most 63 levels")  // `emptyAt` and `lineRoom` hold that many
        separate()
        buffer.append(open)
        depth += 1
        emptyAt |= 1 << UInt64(depth & 63)
    }

    /// Closes a container; an empty one is written `[]` / `{}` (JSONEncoder's blank line
    /// inside an empty array breaks scripts that test for `[]`).
    private mutating func end(_ close: UInt8) {
        let bit: UInt64 = 1 << UInt64(depth & 63)
        let empty = emptyAt & bit != 0
        emptyAt &= ~bit
        depth -= 1
        if !empty { newline() }
        buffer.append(close)
    }

    /// Before a key or a value: nothing right after a key; else a comma (unless first) and a new indented line.
    @inline(__always)
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        let bit: UInt64 = 1 << UInt64(depth & 63)
        let first = emptyAt & bit != 0
        emptyAt &= ~bit
        let out = buffer.reserve(1 + Self.lineRoom)
        if !first { out[0] = 0x2C }
        buffer.commit((first ? 0 : 1) + putLine(out + (first ? 0 : 1)))
    }

    /// A newline and the indentation of `depth`.
    @inline(__always)
    private mutating func newline() {
        buffer.commit(putLine(buffer.reserve(Self.lineRoom)))
    }

    /// Room `putLine` needs: two words, or the longest indentation written byte by byte.
    static let lineRoom = 16 + 2 * 64

    /// Writes a newline and the indentation of `depth` at `out` (which has `lineRoom` bytes)
    /// and returns how many bytes that is. Up to seven levels (every level an account has) it
    /// is two 8-byte stores, whatever the length, instead of a `memcpy` call per line.
    @inline(__always)
    private func putLine(_ out: UnsafeMutablePointer<UInt8>) -> Int {
        let length = 1 + 2 * depth
        if length <= 16 {
            let raw = UnsafeMutableRawPointer(out)
            raw.storeBytes(of: UInt64(0x2020_2020_2020_200A).littleEndian, as: UInt64.self)  // "\n" and 7 spaces
            raw.storeBytes(of: UInt64(0x2020_2020_2020_2020), toByteOffset: 8, as: UInt64.self)
        } else {
            out[0] = 0x0A
            (out + 1).initialize(repeating: 0x20, count: length - 1)
        }
        return length
    }

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes the 20 bytes of `instant.iso8601` at `out` and returns true, or writes nothing
    /// and returns false for a year outside 0–9999 (then the caller quotes `iso8601`).
    /// Why: `accounts --json` writes three dates per account straight into its buffer, with no
    /// String in between. Measured with bench/ab (B/A per round, p25-p75): quoting `iso8601`
    /// and checking bytes one by one (`anyEscaped`) instead made `accounts --json` over 10,000
    /// accounts 1.12x (1.05-1.27).
    @inline(__always)
    static func writeISO8601(_ instant: Instant, to out: UnsafeMutablePointer<UInt8>) -> Bool {
        let (y, m, d, daySeconds) = instant.civilParts
        let secs = Int(daySeconds)
        guard y >= 0, y <= 9999 else { return false }
        pair(Int(y) / 100, out)
        pair(Int(y) % 100, out + 2)
        out[4] = 0x2D
        pair(Int(m), out + 5)
        out[7] = 0x2D
        pair(Int(d), out + 8)
        out[10] = 0x54
        pair(secs / 3600, out + 11)
        out[13] = 0x3A
        pair(secs % 3600 / 60, out + 14)
        out[16] = 0x3A
        pair(secs % 60, out + 17)
        out[19] = 0x5A
        return true
    }

    /// The two decimal digits of `v` (0–99) at `out`.
    @inline(__always)
    static func pair(_ v: Int, _ out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(truncatingIfNeeded: 48 &+ v / 10)
        out[1] = UInt8(truncatingIfNeeded: 48 &+ v % 10)
    }

    /// Whether a JSON string must escape `byte` (controls, `"` and `\`).
    @inline(__always)
    static func mustEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }

    /// Whether any of the `count` bytes at `bytes` must be escaped, eight at a time: a byte
    /// below 0x20 or equal to `"` or `\` makes a word match (`ByteWords`). Why: every string of
    /// every account is scanned (with `writeISO8601`, 1.12x slower one byte at a time: above).
    static func anyEscaped(_ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        ByteWords.any(UnsafeRawBufferPointer(start: bytes, count: count), word: { w in
            ByteWords.bytesBelow(0x20, w) | ByteWords.zeroBytes(w ^ ByteWords.repeating(0x22))
                | ByteWords.zeroBytes(w ^ ByteWords.repeating(0x5C)) != 0
        }, byte: mustEscape)
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\b \t \n \f \r` or
    /// `\u00xx`; everything else (non-ASCII too) as is. A string with nothing to escape (almost
    /// every one) is one reserve and one copy.
    private mutating func quote(_ s: String) {
        let done = s.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            let n = utf8.count
            if let source = utf8.baseAddress, Self.anyEscaped(source, n) { return false }
            let out = buffer.reserve(n + 2)
            out[0] = 0x22
            if let source = utf8.baseAddress { (out + 1).update(from: source, count: n) }
            out[n + 1] = 0x22
            buffer.commit(n + 2)
            return true
        }
        if done != true { quoteEscaping(Array(s.utf8)) }
    }

    /// `quote` for a string with bytes to escape: runs of plain bytes are copied whole.
    private mutating func quoteEscaping(_ utf8: [UInt8]) {
        buffer.append(0x22)
        utf8.withUnsafeBytes { bytes in
            var start = 0
            for i in bytes.indices where Self.mustEscape(bytes[i]) {
                let byte = bytes[i]
                buffer.append(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
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
            buffer.append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        }
        buffer.append(0x22)
    }
}
