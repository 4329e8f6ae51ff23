import AuthDeckCore
import AuthDeckSQLite

/// The `access_tokens` table's columns, and a token read from a row of
/// `CredentialQuery<AccessTokenColumn>`: what the store loads and the front serves from.
public enum AccessTokenColumn: Int32, CredentialColumn {
    case id, accountId, sealedValue, scopes, tokenType, obtainedAt, expiresAt, requestedScopes

    public static let table = "access_tokens"
    public static let sealedColumn: Self? = .sealedValue

    public var name: String {
        switch self {
        case .id: "id"
        case .accountId: "account_id"
        case .sealedValue: "sealed_value"
        case .scopes: "scopes"
        case .tokenType: "token_type"
        case .obtainedAt: "obtained_at"
        case .expiresAt: "expires_at"
        case .requestedScopes: "requested_scopes"
        }
    }

    /// The token on `row`, holding `value` (`.unopened` until its seal is opened).
    public static func token(_ row: RawStatement, value: Secret) -> AccessToken {
        AccessToken(id: row.string(Self.id.rawValue), value: value, scopes: row.words(Self.scopes.rawValue),
                    requestedScopes: row.optionalString(Self.requestedScopes.rawValue)?.split(separator: " ").map(String.init) ?? [],
                    tokenType: row.string(Self.tokenType.rawValue), obtainedAt: row.instant(Self.obtainedAt.rawValue),
                    expiresAt: row.optionalInstant(Self.expiresAt.rawValue))
    }

    /// The associated data of the value's seal on `row`, a row of a query with `owner`.
    public static func sealingContext(_ row: RawStatement) -> String {
        typealias Q = CredentialQuery<Self>
        return SealingContext.accessToken(row.string(Self.id.rawValue), account: row.string(Self.accountId.rawValue),
                                          scopes: row.string(Self.scopes.rawValue), requested: row.optionalString(Self.requestedScopes.rawValue),
                                          expiresAt: row.optionalInt64(Self.expiresAt.rawValue),
                                          provider: row.string(Q.providerIndex), subject: row.string(Q.subjectIndex))
    }
}
