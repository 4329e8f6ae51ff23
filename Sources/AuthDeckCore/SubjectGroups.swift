/// Finds the accounts that share a provider and a subject (the duplicates prune removes) in
/// one pass, with an open-addressed table of account positions and no allocation per account.
///
/// Why: a `Dictionary` of (provider, subject) hashed two Strings per account on every deck
/// read, for stores that almost never hold a duplicate (replaced and measured again: the deck's
/// first frame got slower). The seed is drawn per process, so crafted subjects cannot collide.
struct SubjectGroups {
    /// The positions of the accounts of each group with more than one account, in order.
    private(set) var groups: [[Int]] = []

    /// Groups the accounts at `accounts` for which `include` holds.
    init(_ accounts: UnsafeBufferPointer<StoredAccount>, include: (UnsafePointer<StoredAccount>) -> Bool) {
        guard let first = accounts.baseAddress, accounts.count > 1 else { return }
        var capacity = 16
        while capacity < 2 * accounts.count { capacity <<= 1 }
        let mask = capacity - 1
        // A slot holds the position of the latest account of its group (-1: empty) and that
        // account's hash; `earlier` chains each account to the one before it in its group.
        var slots = [Int32](repeating: -1, count: capacity)
        var hashes = [UInt64](repeating: 0, count: capacity)
        var earlier = [Int32](repeating: -1, count: accounts.count)
        var repeated: [Int] = []  // slots whose group has more than one account
        let seed = Self.seed
        for index in 0..<accounts.count where include(first + index) {
            let account = first + index
            let hash = Self.hash(account.pointee.account.providerId, account.pointee.account.subject, seed: seed)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 {
                let other = first + Int(slots[slot])
                if hashes[slot] == hash, other.pointee.account.subject == account.pointee.account.subject,
                   other.pointee.account.providerId == account.pointee.account.providerId {
                    break
                }
                slot = (slot + 1) & mask
            }
            if slots[slot] >= 0 {
                if earlier[Int(slots[slot])] < 0 { repeated.append(slot) }
                earlier[index] = slots[slot]
            }
            slots[slot] = Int32(index)
            hashes[slot] = hash
        }
        groups = repeated.map { slot in
            var members: [Int] = []
            var member = slots[slot]
            while member >= 0 {
                members.append(Int(member))
                member = earlier[Int(member)]
            }
            return members.reversed()
        }
    }

    /// This process's hash seed (random, so the table's layout cannot be predicted).
    private static let seed = UInt64.random(in: .min ... .max) | 1

    /// A 64-bit hash of the two texts' UTF-8 bytes (and the first's length, so that moving
    /// bytes from one text to the other changes it).
    static func hash(_ a: String, _ b: String, seed: UInt64) -> UInt64 {
        var h = seed ^ (UInt64(truncatingIfNeeded: a.utf8.count) &* 0x9E37_79B9_7F4A_7C15)
        h = mix(a, into: h)
        return finish(mix(b, into: h))
    }

    private static func mix(_ text: String, into start: UInt64) -> UInt64 {
        if let h = text.utf8.withContiguousStorageIfAvailable({ mix(UnsafeRawBufferPointer($0), into: start) }) { return h }
        return Array(text.utf8).withUnsafeBytes { mix($0, into: start) }
    }

    @inline(__always)
    private static func mix(_ bytes: UnsafeRawBufferPointer, into start: UInt64) -> UInt64 {
        var h = start
        let count = bytes.count
        var offset = 0
        while offset + 8 <= count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 29
            offset += 8
        }
        // The last 1 to 7 bytes: as the last eight bytes of the text when it has eight (some
        // read twice, which is harmless), else one by one.
        var tail: UInt64 = 0
        if offset < count {
            if count >= 8 {
                tail = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else {
                for index in 0..<count { tail |= UInt64(bytes[index]) << (8 * index) }
            }
        }
        return (h ^ tail ^ (UInt64(truncatingIfNeeded: count) << 56)) &* 0xC4CE_B9FE_1A85_EC53
    }

    /// MurmurHash3's 64-bit finaliser: every input bit reaches every output bit.
    private static func finish(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 33)
    }
}
