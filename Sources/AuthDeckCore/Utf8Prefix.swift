/// The first 16 UTF-8 bytes of a text as two big-endian words, zero-padded, to sort by.
///
/// Why: prefixes compare as the bytes do, so a sort compares two integers, not two Strings,
/// and compares the texts themselves only when their prefixes are equal.
public struct Utf8Prefix: Comparable, Hashable, Sendable {
    public var high: UInt64
    public var low: UInt64

    public init(_ text: String) {
        (high, low) = text.utf8.withContiguousStorageIfAvailable(Self.words) ?? Array(text.utf8).withUnsafeBufferPointer(Self.words)
    }

    /// Copied into two words at once, not shifted in byte by byte.
    private static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes).prefix(16))) }
        return (UInt64(bigEndian: words.0), UInt64(bigEndian: words.1))
    }

    public static func < (a: Utf8Prefix, b: Utf8Prefix) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }
}
