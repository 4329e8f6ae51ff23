#if canImport(Glibc)
import Glibc
#endif

/// A growable run of bytes in memory of its own: what `JSONWriter` writes into.
///
/// Why not `[UInt8]`: every `append` to an array checks uniqueness and capacity and goes
/// through generic code, which at a few hundred thousand small pieces per document was half
/// of `accounts --json`. Here a piece costs one capacity check and a `memcpy`.
final class ByteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        ensure(bytes.count)
        memcpy(base + count, source, bytes.count)
        count += bytes.count
    }

    @inline(__always)
    func append(_ a: UInt8) {
        ensure(1)
        base[count] = a
        count += 1
    }

    @inline(__always)
    func append(_ a: UInt8, _ b: UInt8) {
        ensure(2)
        base[count] = a
        base[count + 1] = b
        count += 2
    }

    @inline(__always)
    func append(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
        ensure(3)
        base[count] = a
        base[count + 1] = b
        base[count + 2] = c
        count += 3
    }

    @inline(__always)
    func append(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        append(a, b)
        append(c, d)
    }

    /// Room for `extra` more bytes, written through the pointer and then kept with `commit`:
    /// a piece whose length is known up front costs one capacity check.
    @inline(__always)
    func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        ensure(extra)
        return base + count
    }

    /// Keeps `written` bytes written after a `reserve` of at least that many.
    @inline(__always)
    func commit(_ written: Int) { count += written }

    func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets the contents, keeping the memory.
    func removeAll() { count = 0 }

    @inline(__always)
    private func ensure(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    @inline(never)
    private func grow(_ extra: Int) {
        let grown = max(capacity * 2, count + extra)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        fresh.update(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = grown
    }
}
