/// Looks for a byte of interest in a run of bytes eight at a time: the loop behind the JSON
/// writer's "is there anything to escape?" check.
///
/// Why: the check runs on every text of every account in `accounts --json`, so `word` tests
/// eight bytes at once (`byte` serves texts shorter than eight). A longer text's last 1–7
/// bytes are tested as its last eight: some bytes twice, which a test for "any" does not mind.
enum ByteWords {
    /// Whether `word` holds for any eight bytes of `bytes` loaded as a `UInt64` (or `byte`
    /// for any byte, when there are fewer than eight).
    @inline(__always)
    static func any(_ bytes: UnsafeRawBufferPointer, word: (UInt64) -> Bool, byte: (UInt8) -> Bool) -> Bool {
        let count = bytes.count
        guard count >= 8 else { return bytes.contains(where: byte) }
        var at = 0
        while at + 8 <= count {
            if word(bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) { return true }
            at += 8
        }
        return at < count && word(bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// A word with `byte` in each of its eight bytes.
    @inline(__always)
    static func repeating(_ byte: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(byte) }

    /// Nonzero exactly when some byte of `word` is zero (Bit Twiddling Hacks' "has a zero
    /// byte"; only high bits can be set, so it may be or-ed with other such tests).
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- repeating(1)) & ~word & repeating(0x80) }

    /// Nonzero exactly when some byte of `word` is below `n`, for `n` up to 0x80 (Bit
    /// Twiddling Hacks' "has a byte less than n"; high bits only, as above).
    @inline(__always)
    static func bytesBelow(_ n: UInt8, _ word: UInt64) -> UInt64 { (word &- repeating(n)) & ~word & repeating(0x80) }
}
