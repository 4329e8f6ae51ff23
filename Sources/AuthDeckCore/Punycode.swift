/// RFC 3492 Punycode and the `xn--` form of host names: how a person sees which letters an
/// internationalised host really has.
///
/// Why: `pаypal.example` with a Cyrillic `а` looks like the real host; its ASCII form,
/// `xn--pypal-4ve.example`, does not. This is the encoding only — no IDNA mapping or
/// normalisation beyond lowercasing — which is enough to show a host and compare it.
public enum Punycode {
    static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// The Punycode of `label` (without `xn--`); nil when the arithmetic would overflow.
    public static func encode(_ label: String) -> String? {
        let input = label.unicodeScalars.map { Int($0.value) }
        var output: [UInt8] = input.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            guard let m = input.filter({ $0 >= n }).min() else { break }
            let (step, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - step else { return nil }
            delta += step
            n = m
            for c in input {
                if c < n {
                    delta += 1
                    guard delta <= Int(Int32.max) else { return nil }
                }
                guard c == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, handled + 1, handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `host` with every label that is not plain ASCII written as `xn--` + its Punycode,
    /// lowercased; nil when a label cannot be encoded.
    public static func asciiHost(_ host: String) -> String? {
        var labels: [String] = []
        for label in host.lowercased().split(separator: ".", omittingEmptySubsequences: false) {
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                labels.append(String(label))
            } else {
                guard let encoded = encode(String(label)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    static func digit(_ d: Int) -> UInt8 {
        d < 26 ? UInt8(97 + d) : UInt8(22 + d)  // a–z, then 0–9
    }

    static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
