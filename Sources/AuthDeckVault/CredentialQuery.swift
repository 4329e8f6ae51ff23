import AuthDeckSQLite

/// The one SELECT over a credential table, built from its column description: every column in
/// `Column`'s order (the sealed value as NULL when it is not to be opened), then — with
/// `owner` — the owning account's provider and subject, at `providerIndex` and `subjectIndex`.
///
/// Why one builder: the store's loads and the front's reads ran copies of these queries, each
/// reading columns by numbers that held only for its own copy (the owner's columns existed only
/// when the store opened secrets). Both now read the rows this builds, by `Column`'s names.
public struct CredentialQuery<Column: CredentialColumn> {
    /// The statement's text (the table aliased `t`, its account `a`).
    public let sql: String
    /// The values of its `?`s.
    public let arguments: [RawStatement.Argument]

    /// Where the owner's provider and subject stand in a row (with `owner`).
    public static var providerIndex: Int32 { Column.end }
    public static var subjectIndex: Int32 { Column.end + 1 }

    /// The rows of `scope`; `sealed: false` reads NULL for the sealed value (a listing opens
    /// none), `owner` appends the account's provider and subject (the sealing contexts bind
    /// them), `order` sorts by one column.
    public init(_ scope: CredentialScope, sealed: Bool, owner: Bool, order: Column? = nil) {
        let columns = Column.allCases.map { column in
            column == Column.sealedColumn && !sealed ? "NULL" : "t." + column.name
        }
        var sql = "SELECT " + columns.joined(separator: ", ") + (owner ? ", a.provider_id, a.subject" : "") + " FROM \(Column.table) t"
        if owner { sql += " JOIN accounts a ON a.id = t.\(Column.accountId.name)" }
        if case .account = scope { sql += " WHERE t.\(Column.accountId.name) = ?" }
        if let order { sql += " ORDER BY t.\(order.name)" }
        self.sql = sql
        self.arguments = scope.arguments
    }

    /// The prepared statement on `connection` (the front's own, or the store's inside a
    /// GRDB transaction).
    public func statement(on connection: OpaquePointer) throws -> RawStatement {
        try RawStatement(connection, sql: sql, arguments: arguments)
    }
}
