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
        let days = secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : (secondsSinceEpoch - 86_399) / 86_400
        let secs = secondsSinceEpoch - days * 86_400
        let (y, m, d) = Instant.civil(fromDays: days)
        func pad(_ v: Int64, _ w: Int = 2) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m))-\(pad(d))T\(pad(secs / 3600)):\(pad(secs % 3600 / 60)):\(pad(secs % 60))Z"
    }

    /// Calls `body` with the bytes of `iso8601`, without making a String for the usual years
    /// (0–9999): what `accounts --json` writes for every date of 10,000 accounts.
    public func withISO8601<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            if fillISO8601(buffer) { return body(UnsafeRawBufferPointer(buffer)) }
            var text = iso8601
            return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Writes the 20 bytes of `iso8601` into `buffer`; false (nothing written) for a year
    /// outside 0–9999.
    private func fillISO8601(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        let days = secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : (secondsSinceEpoch - 86_399) / 86_400
        let secs = secondsSinceEpoch - days * 86_400
        let (y, m, d) = Instant.civil(fromDays: days)
        guard (0...9999).contains(y), buffer.count >= 20 else { return false }
        func put(_ v: Int64, _ at: Int, _ width: Int) {
            var v = v
            for i in stride(from: at + width - 1, through: at, by: -1) {
                buffer[i] = UInt8(48 + v % 10)
                v /= 10
            }
        }
        put(y, 0, 4); buffer[4] = 0x2D; put(m, 5, 2); buffer[7] = 0x2D; put(d, 8, 2); buffer[10] = 0x54
        put(secs / 3600, 11, 2); buffer[13] = 0x3A; put(secs % 3600 / 60, 14, 2); buffer[16] = 0x3A
        put(secs % 60, 17, 2); buffer[19] = 0x5A
        return true
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
