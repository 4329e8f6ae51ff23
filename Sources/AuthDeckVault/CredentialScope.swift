import AuthDeckSQLite

/// Whose credentials a `CredentialQuery` reads.
public enum CredentialScope: Sendable, Equatable {
    /// One account's.
    case account(String)
    /// Every account's.
    case all

    /// The values of the query's `?`s.
    public var arguments: [RawStatement.Argument] {
        if case .account(let id) = self { return [.text(id)] }
        return []
    }
}
