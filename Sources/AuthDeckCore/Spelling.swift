/// "Did you mean": how far apart two words are, and which of some names a typo was meant to be.
///
/// Why one place: a mistyped command, config key and ACCOUNT each deserve the same help, and
/// two copies of the distance had already drifted (one counted a swap of two letters as two
/// edits, so `acocunts` was further from `accounts` than `acxounts`).
public enum Spelling {
    /// Levenshtein distance, an adjacent transposition counting one (`acocunts`).
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// The candidate nearest `word` when it is near enough to be a typo of it: at most `limit`
    /// edits (default: a third of the word's length, at least one). The first of equals wins;
    /// nil when nothing is that near, or when `word` is itself a candidate.
    public static func nearest(_ word: String, in candidates: [String], within limit: Int? = nil) -> String? {
        let limit = limit ?? max(1, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let d = distance(word, candidate)
            if d == 0 { return nil }
            if d <= limit, d < best?.distance ?? .max { best = (candidate, d) }
        }
        return best?.name
    }
}
