import CMalloc
#if canImport(Glibc)
import Glibc
#endif

/// Sets glibc's allocator up for authdeck-full's shape of work, before any thread starts.
///
/// Why: glibc would give each worker thread an arena grown by one `mprotect(2)` per few pages,
/// each a TLB flush on every core; the one main arena grows by `brk` in `M_TOP_PAD` steps. The
/// threads rarely allocate at the same moment, and each keeps its own small cache (tcache).
public enum MallocTuning {
    /// One arena for every thread, grown 4 MB at a time.
    public static func apply() {
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_TOP_PAD, 4 << 20)
    }

    /// Reserves `bytes` of heap and has a thread of its own fault its pages in, so that the
    /// work about to allocate them finds them mapped.
    ///
    /// Why: the first touch of each fresh page is a page fault on the critical path; here the
    /// kernel maps them on the other core meanwhile (`MADV_POPULATE_WRITE`, Linux 5.14; on an
    /// older kernel the call fails and the pages fault as before).
    ///
    /// The block is freed at once so it stays the heap's free top for the next allocations; the
    /// mmap and trim thresholds are raised (to glibc's own maxima) so it is not an mmap of its
    /// own, handed back on `free`. Unused pages still add to peak RSS: size it from the work ahead.
    ///
    /// - Returns: the addresses being faulted in (whole pages), nil when nothing is (under
    ///   16 pages asked, or no memory).
    @discardableResult
    public static func prefault(_ bytes: Int) -> Range<UInt>? {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard bytes >= 16 * page else { return nil }
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 64 << 20)
        guard let block = malloc(bytes) else { return nil }
        free(block)
        // Whole pages inside the block; the kernel is not asked about the allocator's headers.
        let start = (Int(bitPattern: block) + page - 1) & ~(page - 1)
        let length = (Int(bitPattern: block) + bytes - start) & ~(page - 1)
        let range = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        range.initialize(to: start)
        (range + 1).initialize(to: length)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            let range = argument!.assumingMemoryBound(to: Int.self)
            _ = madvise(UnsafeMutableRawPointer(bitPattern: range[0]), range[1], MADV_POPULATE_WRITE)
            range.deallocate()
            return nil
        }, range)
        guard started == 0 else {
            range.deallocate()
            return nil
        }
        pthread_detach(thread)
        return UInt(start)..<UInt(start + length)
    }
}
