import Foundation
import AuthDeckPlatform
#if canImport(Glibc)
import Glibc
#endif

/// How long this process has existed: so a trace of the first frame includes the dynamic
/// loader and runtime start-up, not only `main`.
enum ProcessClock {
    /// Seconds since `AUTHDECK_TRACE_T0` (nanoseconds since the epoch, set by whoever starts
    /// authdeck, e.g. `AUTHDECK_TRACE_T0=$(date +%s%N) authdeck`), else since the kernel's
    /// record of the start (in 10 ms clock ticks), or nil where /proc cannot tell.
    static func sinceExec(_ environment: [String: String]) -> Double? {
        if let t0 = environment["AUTHDECK_TRACE_T0"].flatMap(Double.init) {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return (Double(now.tv_sec) * 1e9 + Double(now.tv_nsec) - t0) / 1e9
        }
        guard let ticks = ProcessIdentity.current.startTicks.map(Double.init) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let boot = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return boot - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
