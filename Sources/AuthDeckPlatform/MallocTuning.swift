import CMalloc
#if canImport(Glibc)
import Glibc
#endif

/// Sets glibc's allocator up for authdeck-full's shape of work, before any thread starts.
///
/// Why: authdeck's commands run on Swift concurrency's worker threads and the deck reads
/// the store on a thread of its own. glibc gives each such thread an arena of its own, which
/// grows by one `mprotect(2)` per few pages — 1,500 calls for `accounts --json` at 10,000
/// accounts and 2,800 for the deck's first frame, each one a TLB flush on every core the
/// process runs on. One arena (the main one, grown by `brk` in steps of `M_TOP_PAD`) made
/// the deck's first frame at 10,000 accounts about a fifth faster here. The threads rarely
/// allocate at the same moment, and each still has its own small cache (tcache).
public enum MallocTuning {
    /// One arena for every thread, grown 4 MB at a time.
    public static func apply() {
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_TOP_PAD, 4 << 20)
    }

    /// Reserves `bytes` of heap and has a thread of its own fault its pages in, so that the
    /// work about to allocate them finds them mapped.
    ///
    /// Why: the first touch of each fresh 4 KB page is a page fault, about 1.5 µs on this kind
    /// of virtual machine; reading 10,000 accounts into the deck touched ~3,000 of them (half
    /// its page faults), one after another on the thread that was the deck's critical path.
    /// Here the kernel maps them on the other core meanwhile (`MADV_POPULATE_WRITE`, Linux
    /// 5.14; on an older kernel the call fails and the pages fault as before).
    ///
    /// The block is allocated and freed at once, so it stays the heap's free top for the next
    /// allocations to take: large blocks come from the heap too (mmap threshold 32 MB, trim
    /// threshold 64 MB — the values glibc's own dynamic thresholds reach at most), else the
    /// reservation would be an mmap of its own and go back to the kernel on `free`. Peak RSS
    /// grows by what is faulted in and not used, so callers size it from the work ahead.
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
