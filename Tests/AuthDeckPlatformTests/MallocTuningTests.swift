import Testing
import AuthDeckPlatform
#if canImport(Glibc)
import Glibc
#endif

/// `MallocTuning.prefault`: the pages it reserves end up mapped, and the heap hands them out.
@Suite struct MallocTuningTests {
    @Test func prefaultedPagesBecomeResidentAndAreWhatTheNextAllocationsTake() throws {
        let bytes = 8 << 20
        let range = try #require(MallocTuning.prefault(bytes))
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        #expect(range.count >= bytes - 2 * Int(page) && range.count <= bytes)
        #expect(range.lowerBound % page == 0 && range.upperBound % page == 0)
        // The thread faulting them in runs on; poll (up to 10 s) until the kernel reports
        // every page of the range resident.
        let pages = range.count / Int(page)
        var residency = [UInt8](repeating: 0, count: pages)
        var resident = 0
        for _ in 0..<1000 {
            #expect(mincore(UnsafeMutableRawPointer(bitPattern: range.lowerBound), range.count, &residency) == 0)
            resident = residency.reduce(0) { $0 + Int($1 & 1) }
            if resident == pages { break }
            usleep(10_000)
        }
        #expect(resident == pages, "\(resident) of \(pages) pages resident")
        // The block was freed into the heap's top: a large allocation now comes from there
        // (it may start in the part page before the range, where the block itself began).
        let block = try #require(malloc(bytes / 4))
        defer { free(block) }
        let start = UInt(bitPattern: block)
        #expect(start + UInt(bytes / 4) > range.lowerBound && start < range.upperBound, "\(start) is not in \(range)")
    }

    @Test func tooSmallARequestFaultsNothingIn() {
        #expect(MallocTuning.prefault(0) == nil)
        #expect(MallocTuning.prefault(4096) == nil)
    }
}
