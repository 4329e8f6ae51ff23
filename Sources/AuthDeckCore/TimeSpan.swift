/// A signed length of time in whole seconds, parsed from and printed as `90d`, `1h30m`, `45s`.
///
/// Config files and CLI flags (`--since 2h`, `unused_after = "90d"`) use this one syntax so
/// a user learns it once.
public struct TimeSpan: Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var seconds: Int64

    public init(seconds: Int64) { self.seconds = seconds }

    public static func seconds(_ n: Int64) -> TimeSpan { TimeSpan(seconds: n) }
    public static func minutes(_ n: Int64) -> TimeSpan { TimeSpan(seconds: n * 60) }
    public static func hours(_ n: Int64) -> TimeSpan { TimeSpan(seconds: n * 3600) }
    public static func days(_ n: Int64) -> TimeSpan { TimeSpan(seconds: n * 86_400) }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.seconds < rhs.seconds }

    static let units: [(Character, Int64)] = [("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]

    /// Parses `90d`, `1h30m`, `2w`, `45s` or a bare number of seconds; nil for anything else.
    public init?(parsing text: String) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        if let plain = Int64(trimmed), plain >= 0 {
            self.seconds = plain
            return
        }
        var total: Int64 = 0
        var digits = ""
        var seenUnit = false
        for ch in trimmed {
            if ch.isASCII, ch.isNumber {
                digits.append(ch)
            } else if let unit = TimeSpan.units.first(where: { $0.0 == Character(ch.lowercased()) }) {
                guard let n = Int64(digits) else { return nil }
                let (mul, o1) = n.multipliedReportingOverflow(by: unit.1)
                let (sum, o2) = total.addingReportingOverflow(mul)
                guard !o1, !o2 else { return nil }
                total = sum
                digits = ""
                seenUnit = true
            } else {
                return nil
            }
        }
        guard digits.isEmpty, seenUnit else { return nil }
        self.seconds = total
    }

    /// The two largest units, zero-padded like a countdown: `12m 04s`, `3h 05m`, `2d 04h`.
    public var compact: String {
        let s = seconds < 0 ? -seconds : seconds
        func pad(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m \(pad(s % 60))s" }
        if s < 86_400 { return "\(s / 3600)h \(pad(s % 3600 / 60))m" }
        return "\(s / 86_400)d \(pad(s % 86_400 / 3600))h"
    }

    /// The config syntax for this span (`90d`, `1h30m`), which `init(parsing:)` reads back.
    public var description: String {
        if seconds == 0 { return "0s" }
        var rest = seconds < 0 ? -seconds : seconds
        var out = seconds < 0 ? "-" : ""
        for (unit, size) in TimeSpan.units where unit != "w" && rest >= size {
            out += "\(rest / size)\(unit)"
            rest %= size
        }
        return out
    }
}

extension String {
    /// Leading and trailing spaces, tabs and newlines removed (no Foundation in Core).
    public func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let f = scalars.first, f.isWhitespace { scalars.removeFirst() }
        while let l = scalars.last, l.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
