/// A point in time as whole seconds since the Unix epoch.
///
/// Token and cookie lifetimes are second-granular on the wire, so a plain integer keeps
/// comparisons exact and the store schema simple.
public struct Instant: Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var secondsSinceEpoch: Int64

    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    public static func + (lhs: Instant, rhs: TimeSpan) -> Instant {
        Instant(secondsSinceEpoch: lhs.secondsSinceEpoch &+ rhs.seconds)
    }

    public static func - (lhs: Instant, rhs: TimeSpan) -> Instant {
        Instant(secondsSinceEpoch: lhs.secondsSinceEpoch &- rhs.seconds)
    }

    /// The span from `rhs` to `lhs` (negative when `lhs` is earlier).
    public static func - (lhs: Instant, rhs: Instant) -> TimeSpan {
        TimeSpan(seconds: lhs.secondsSinceEpoch &- rhs.secondsSinceEpoch)
    }

    /// RFC 3339 in UTC (`2026-11-22T11:27:20Z`), computed without Foundation.
    public var iso8601: String {
        // Digits written straight into 20 bytes: listings print thousands of these.
        let text = String(unsafeUninitializedCapacity: 20) { fillISO8601($0) ? 20 : 0 }
        if !text.isEmpty { return text }
        let (y, m, d, secs) = civilParts
        func pad(_ v: Int64, _ w: Int = 2) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m))-\(pad(d))T\(pad(secs / 3600)):\(pad(secs % 3600 / 60)):\(pad(secs % 60))Z"
    }

    /// Writes the 20 bytes of `iso8601` at `out` and returns true, or writes nothing and
    /// returns false for a year outside 0–9999 (then use `iso8601`).
    ///
    /// Why: `accounts --json` writes three dates per account straight into its output buffer,
    /// with no String or closure in between.
    @inline(__always)
    public func writeISO8601(to out: UnsafeMutablePointer<UInt8>) -> Bool {
        let (y, m, d, daySeconds) = civilParts
        let secs = Int(daySeconds)
        guard y >= 0, y <= 9999 else { return false }
        Instant.pair(Int(y) / 100, out)
        Instant.pair(Int(y) % 100, out + 2)
        out[4] = 0x2D
        Instant.pair(Int(m), out + 5)
        out[7] = 0x2D
        Instant.pair(Int(d), out + 8)
        out[10] = 0x54
        Instant.pair(secs / 3600, out + 11)
        out[13] = 0x3A
        Instant.pair(secs % 3600 / 60, out + 14)
        out[16] = 0x3A
        Instant.pair(secs % 60, out + 17)
        out[19] = 0x5A
        return true
    }

    /// The UTC date (year, month, day) and the seconds into that day.
    @inline(__always)
    var civilParts: (year: Int64, month: Int64, day: Int64, seconds: Int64) {
        let days = secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : (secondsSinceEpoch - 86_399) / 86_400
        let (y, m, d) = Instant.civil(fromDays: days)
        return (y, m, d, secondsSinceEpoch - days * 86_400)
    }

    /// The two decimal digits of `v` (0–99) at `out`.
    @inline(__always)
    static func pair(_ v: Int, _ out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(truncatingIfNeeded: 48 &+ v / 10)
        out[1] = UInt8(truncatingIfNeeded: 48 &+ v % 10)
    }

    /// `writeISO8601` into a buffer of at least 20 bytes.
    private func fillISO8601(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        guard buffer.count >= 20, let base = buffer.baseAddress else { return false }
        return writeISO8601(to: base)
    }

    public var description: String { iso8601 }

    /// Howard Hinnant's days-from-civil inverse: proleptic Gregorian date of a day number.
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
