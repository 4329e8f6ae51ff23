import Testing
import AuthDeckTestSupport
@testable import AuthDeckCore

/// `SubjectGroups` finds exactly the groups a plain dictionary of (provider, subject) finds.
@Suite struct SubjectGroupsTests {
    func stored(_ index: Int, provider: String, subject: String, quarantined: Bool = false) -> StoredAccount {
        var account = Account(id: "a\(index)", providerId: provider, subject: subject, username: "u\(index)",
                              createdAt: Instant(secondsSinceEpoch: 1_800_000_000))
        if quarantined { account.quarantinedAt = Instant(secondsSinceEpoch: 1_800_000_000) }
        return StoredAccount(account: account)
    }

    /// The groups of more than one, by a dictionary: what the table must reproduce.
    func reference(_ accounts: [StoredAccount], include: (StoredAccount) -> Bool) -> Set<[Int]> {
        var groups: [[String]: [Int]] = [:]
        var order: [[String]] = []
        for (index, s) in accounts.enumerated() where include(s) {
            let key = [s.account.providerId, s.account.subject]
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(index)
        }
        return Set(order.compactMap { groups[$0]!.count > 1 ? groups[$0] : nil })
    }

    func groups(_ accounts: [StoredAccount], include: @escaping (StoredAccount) -> Bool) -> Set<[Int]> {
        Set(SubjectGroups(accounts, include: include).groups)
    }

    @Test func manyAccountsWithSomeDuplicatesGroupAsADictionaryGroupsThem() {
        // 6,000 accounts over 3 providers; subjects drawn from a range smaller than the count,
        // so many repeat (within and across providers), with lengths from 0 to 90 bytes so the
        // eight-byte steps and every tail length are exercised. Deterministic generator.
        var rng = SeededGenerator(seed: 42)
        let providers = ["work", "prod", "a-much-longer-provider-id"]
        var accounts: [StoredAccount] = []
        for index in 0..<6_000 {
            let provider = providers[Int(rng.next() % 3)]
            let n = rng.next() % 4_000
            let subject = String(repeating: "x", count: Int(n % 91)) + (n % 7 == 0 ? "é" : "") + "\(n)"
            accounts.append(stored(index, provider: provider, subject: subject, quarantined: rng.next() % 10 == 0))
        }
        let include: (StoredAccount) -> Bool = { !$0.account.subject.isEmpty && $0.account.quarantinedAt == nil }
        let expected = reference(accounts, include: include)
        #expect(expected.count > 100)
        let found = groups(accounts, include: include)
        #expect(found == expected, "groups that differ: \(found.symmetricDifference(expected).prefix(5))")
    }

    @Test func textsMovedFromProviderToSubjectAreDifferentKeys() {
        let accounts = [stored(0, provider: "ab", subject: "c"), stored(1, provider: "a", subject: "bc"),
                        stored(2, provider: "ab", subject: "c")]
        #expect(groups(accounts) { _ in true } == [[0, 2]])
    }

    @Test func fewerThanTwoAccountsHaveNoGroups() {
        #expect(groups([]) { _ in true }.isEmpty)
        #expect(groups([stored(0, provider: "p", subject: "s")]) { _ in true }.isEmpty)
    }
}
