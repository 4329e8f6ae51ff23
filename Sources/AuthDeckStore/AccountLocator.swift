import Foundation
import AuthDeckSQLite

/// Finds which account of a listing a credential row belongs to, from the account id bytes
/// on the row, usually without making a String of them.
///
/// Why: credential rows mostly come in the order the account rows were read, so comparing a
/// row's bytes with the account expected next (or the one just found) settles most rows with
/// one `memcmp`; rows in any other order fall back to a map from id, built when first needed.
struct AccountLocator {
    /// Account ids in the order the rows were read.
    private let ids: [String]
    /// For each read position, the account's position in the listing.
    private let positions: [Int]
    /// The read position found last (-1: none yet).
    private var last = -1
    private var byId: [String: Int]?

    init(ids: [String], positions: [Int]) {
        precondition(ids.count == positions.count)
        self.ids = ids
        self.positions = positions
    }

    /// The listing position of the account whose id is in `column` of `row`, or nil for an
    /// account not in the listing (a quarantined one).
    mutating func position(of row: RawStatement, column: Int32) -> Int? {
        // The next account first (one row each, as refresh tokens are), then the same again.
        if last + 1 < ids.count, row.text(column, equals: ids[last + 1]) {
            last += 1
            return positions[last]
        }
        if last >= 0, row.text(column, equals: ids[last]) { return positions[last] }
        if byId == nil {
            byId = Dictionary(ids.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        }
        guard let read = byId?[row.string(column)] else { return nil }
        last = read
        return positions[read]
    }
}
