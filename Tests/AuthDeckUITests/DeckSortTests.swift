import Testing
import AuthDeckTestSupport
import AuthDeckCore
import AuthDeckUI

/// The table's sorts give the order their definitions give — by expiry or last use, then id —
/// on a deck where many rows tie on the time and ids share long prefixes (the sort compares
/// ids by their first 16 bytes as integers and only then as Strings).
@Suite struct DeckSortTests {
    /// Accounts with three expiries, four last-use times (and never), ids of 10–24 bytes
    /// sharing `work/aaaaaaaaaaa` and ASCII and precomposed non-ASCII tails.
    func crowd() -> [StoredAccount] {
        let now = DeckTestState.now
        var generator = SeededGenerator(seed: 42)
        let tails = ["", "a", "b", "ab", "é", "z", "0", "aaaaaaa", "aaaaaaab", "~"]
        return (0..<120).map { i in
            let prefix = ["work/", "work/aaaaaaaaaaa", "work/aaaaaaaaaaaa", "prod/"][Int.random(in: 0..<4, using: &generator)]
            let id = prefix + tails[Int.random(in: 0..<tails.count, using: &generator)] + String(i % 7)
            let expiry = [now + .hours(1), now + .hours(2), now - .hours(1)][Int.random(in: 0..<3, using: &generator)]
            let used: Instant? = [nil, now - .hours(1), now - .hours(5), now - .days(2), now][Int.random(in: 0..<5, using: &generator)]
            let token = AccessToken(id: "t\(i)", value: Secret("v"), scopes: ["openid"], obtainedAt: now - .hours(3), expiresAt: expiry)
            return StoredAccount(account: Account(id: id + "-\(i)", providerId: String(prefix.prefix(4)), subject: "s\(i)",
                                                  username: "u\(i)@example.com", createdAt: now - .days(3),
                                                  lastSignInAt: now - .hours(3), lastUsedAt: used),
                                 credentials: Credentials(accessTokens: [token]))
        }
    }

    @Test func expiryThenIdAndLastUsedThenId() {
        var state = DeckTestState.make(width: 120, height: 40, extra: crowd())
        #expect(state.rows.count > 120)
        let rows = state.rows
        state.sort = .expiry
        let byExpiry = rows.sorted { a, b in
            let x = a.expiry?.secondsSinceEpoch ?? .max, y = b.expiry?.secondsSinceEpoch ?? .max
            return x != y ? x < y : a.id < b.id
        }
        #expect(state.visibleRows.map(\.id) == byExpiry.map(\.id))
        state.sort = .lastUsed
        let byUse = rows.sorted { a, b in
            let x = a.lastUsed?.secondsSinceEpoch ?? .min, y = b.lastUsed?.secondsSinceEpoch ?? .min
            return x != y ? x > y : a.id < b.id
        }
        #expect(state.visibleRows.map(\.id) == byUse.map(\.id))
        // The crowd really ties: many rows share a time, and ids share their first 16 bytes.
        #expect((Dictionary(grouping: rows.compactMap(\.expiry), by: { $0 }).values.map(\.count).max() ?? 0) > 30)
        #expect(rows.filter { $0.id.utf8.count > 16 && $0.id.hasPrefix("work/aaaaaaaaaaa") }.count > 10)
    }
}
