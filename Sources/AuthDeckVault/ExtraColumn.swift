import AuthDeckCore
import AuthDeckSQLite

/// The `extras` table's columns: a provider's extra secrets of an account by name.
public enum ExtraColumn: Int32, CredentialColumn {
    case accountId, name, sealedValue

    public static let table = "extras"
    public static let sealedColumn: Self? = .sealedValue

    public var name: String {
        switch self {
        case .accountId: "account_id"
        case .name: "name"
        case .sealedValue: "sealed_value"
        }
    }

    /// The associated data of the value's seal on `row`, a row of a query with `owner`.
    public static func sealingContext(_ row: RawStatement) -> String {
        typealias Q = CredentialQuery<Self>
        return SealingContext.extra(row.string(Self.accountId.rawValue), row.string(Self.name.rawValue),
                                    provider: row.string(Q.providerIndex), subject: row.string(Q.subjectIndex))
    }
}
