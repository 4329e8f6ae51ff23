import CMalloc

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
}
