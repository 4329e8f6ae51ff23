/// Seeded mutations of corpus inputs: the bit flips, byte edits, splices and dictionary
/// insertions libFuzzer starts from, without its coverage feedback.
///
/// Why seeded: a failure found in CI must be reproducible from the printed seed alone.
struct Mutator {
    private var state: UInt64
    let dictionary: [[UInt8]]

    init(seed: UInt64, dictionary: [String]) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
        self.dictionary = dictionary.map { Array($0.utf8) }
    }

    /// xorshift64*: fast, and the same sequence on every machine.
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }

    /// One to eight stacked mutations of `input`, with `other` available for splicing.
    mutating func mutate(_ input: [UInt8], other: [UInt8]) -> [UInt8] {
        var data = input
        for _ in 0...below(8) {
            let at = below(data.count + 1)
            switch below(9) {
            case 0 where !data.isEmpty: data[min(at, data.count - 1)] ^= UInt8(1 << below(8))
            case 1 where !data.isEmpty: data[min(at, data.count - 1)] = UInt8(truncatingIfNeeded: next())
            case 2 where !data.isEmpty: data.removeSubrange(at..<min(data.count, at + 1 + below(16)))
            case 3: data.insert(contentsOf: (0...below(8)).map { _ in UInt8(truncatingIfNeeded: next()) }, at: at)
            case 4 where !dictionary.isEmpty: data.insert(contentsOf: dictionary[below(dictionary.count)], at: at)
            case 5 where !other.isEmpty:
                let from = below(other.count)
                data.insert(contentsOf: other[from..<min(other.count, from + 1 + below(64))], at: at)
            case 6 where !data.isEmpty:
                // Duplicate a chunk: deep nesting, repeated keys, long runs.
                let end = min(data.count, at + 1 + below(32))
                if at < end { data.insert(contentsOf: Array(data[at..<end]), at: at) }
            case 7 where !data.isEmpty: data[min(at, data.count - 1)] = [0, 0x7F, 0xFF, 0x22, 0x5C, 0x0A, 0x3D, 0x5B][below(8)]
            case 8 where data.count > 1: data = Array(data[0..<at.clamped(1, data.count)])
            default: data.append(UInt8(truncatingIfNeeded: next()))
            }
            if data.count > 1 << 16 { data.removeLast(data.count - (1 << 16)) }
        }
        return data
    }
}

extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}
