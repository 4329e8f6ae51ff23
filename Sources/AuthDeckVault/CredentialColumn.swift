/// The columns of a table of account credentials (`access_tokens`, `refresh_tokens`,
/// `cookies`, `id_token_claims`, `extras`): which one names the account, and which one holds
/// the sealed value, so one query (`CredentialQuery`) reads any of them.
public protocol CredentialColumn: TableColumn {
    /// The column holding the account's id (a case of that name).
    static var accountId: Self { get }
    /// The column holding the sealed value; nil for a table of plain values.
    static var sealedColumn: Self? { get }
}
