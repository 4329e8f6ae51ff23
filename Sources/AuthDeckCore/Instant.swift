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
        let (y, m, d, secs) = civilParts
        guard y >= 0, y <= 9999 else {
            func pad(_ v: Int64, _ w: Int = 2) -> String {
                let s = String(v)
                return String(repeating: "0", count: max(0, w - s.count)) + s
            }
            return "\(pad(y, 4))-\(pad(m))-\(pad(d))T\(pad(secs / 3600)):\(pad(secs % 3600 / 60)):\(pad(secs % 60))Z"
        }
        var text: [UInt8] = []
        text.reserveCapacity(20)
        for (value, separator) in [(y / 100, nil), (y % 100, 0x2D), (m, 0x2D), (d, 0x54), (secs / 3600, 0x3A),
                                   (secs % 3600 / 60, 0x3A), (secs % 60, 0x5A)] as [(Int64, UInt8?)] {
            text.append(UInt8(48 + value / 10))
            text.append(UInt8(48 + value % 10))
            if let separator { text.append(separator) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The UTC date (year, month, day) and the seconds into that day.
    public var civilParts: (year: Int64, month: Int64, day: Int64, seconds: Int64) {
        let days = secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : (secondsSinceEpoch - 86_399) / 86_400
        let (y, m, d) = Instant.civil(fromDays: days)
        return (y, m, d, secondsSinceEpoch - days * 86_400)
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
