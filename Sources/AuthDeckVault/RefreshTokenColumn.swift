import AuthDeckCore
import AuthDeckSQLite

/// The `refresh_tokens` table's columns (one row an account), and a token read from a row of
/// `CredentialQuery<RefreshTokenColumn>`.
public enum RefreshTokenColumn: Int32, CredentialColumn {
    case accountId, id, sealedValue, generation, obtainedAt, expiresAt

    public static let table = "refresh_tokens"
    public static let sealedColumn: Self? = .sealedValue

    public var name: String {
        switch self {
        case .accountId: "account_id"
        case .id: "id"
        case .sealedValue: "sealed_value"
        case .generation: "generation"
        case .obtainedAt: "obtained_at"
        case .expiresAt: "expires_at"
        }
    }

    /// The token on `row`, holding `value` and the grant's `home` (both sealed together).
    public static func token(_ row: RawStatement, value: Secret, home: GrantHome? = nil) -> RefreshToken {
        RefreshToken(id: row.string(Self.id.rawValue), value: value, generation: Int(row.int64(Self.generation.rawValue)),
                     obtainedAt: row.instant(Self.obtainedAt.rawValue), expiresAt: row.optionalInstant(Self.expiresAt.rawValue), home: home)
    }

    /// The associated data of the value's seal on `row`, a row of a query with `owner`.
    public static func sealingContext(_ row: RawStatement) -> String {
        typealias Q = CredentialQuery<Self>
        return SealingContext.refreshToken(row.string(Self.accountId.rawValue), row.string(Self.id.rawValue),
                                           provider: row.string(Q.providerIndex), subject: row.string(Q.subjectIndex))
    }
}
