/// A table's columns described once for both binaries: their names, and their order in every
/// SELECT that reads whole rows (`list`), so a row is read by the column it names
/// (`row.string(C.scopes.rawValue)`), never by a number spelled beside the query.
///
/// Why: a query, its reader and its writer each spelling the order let a column added to one
/// and not the others read one field as another without an error — and the front, which reads
/// the same tables, kept a copy of each query.
public protocol TableColumn: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == Int32, AllCases == [Self] {
    /// The table's name in SQL.
    static var table: String { get }
    /// The column's name in SQL.
    var name: String { get }
}

extension TableColumn {
    /// Every column in reading order, for `SELECT \(list) FROM \(table)`.
    public static var list: String { names(allCases) }

    /// `columns`' names for a SELECT that reads them in that order.
    public static func names(_ columns: [Self]) -> String {
        columns.map(\.name).joined(separator: ", ")
    }

    /// The position of the first column a SELECT appends after the table's own (the owner's
    /// provider and subject of a credential query).
    public static var end: Int32 { Int32(allCases.count) }
}
