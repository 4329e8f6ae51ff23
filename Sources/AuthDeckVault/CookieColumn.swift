import AuthDeckCore
import AuthDeckSQLite

/// The `cookies` table's columns, and a cookie read from a row of `CredentialQuery<CookieColumn>`
/// (its seal binds the cookie's own columns, not the owner's).
public enum CookieColumn: Int32, CredentialColumn {
    case id, accountId, name, sealedValue, domain, path, expiresAt, secure, httpOnly

    public static let table = "cookies"
    public static let sealedColumn: Self? = .sealedValue

    public var name: String {
        switch self {
        case .id: "id"
        case .accountId: "account_id"
        case .name: "name"
        case .sealedValue: "sealed_value"
        case .domain: "domain"
        case .path: "path"
        case .expiresAt: "expires_at"
        case .secure: "secure"
        case .httpOnly: "http_only"
        }
    }

    /// The cookie on `row`, holding `value`.
    public static func cookie(_ row: RawStatement, value: Secret) -> Cookie {
        Cookie(id: row.string(Self.id.rawValue), name: row.string(Self.name.rawValue), value: value, domain: row.string(Self.domain.rawValue),
               path: row.string(Self.path.rawValue), expiresAt: row.optionalInstant(Self.expiresAt.rawValue),
               secure: row.int64(Self.secure.rawValue) != 0, httpOnly: row.int64(Self.httpOnly.rawValue) != 0)
    }

    /// The associated data of the value's seal on `row`.
    public static func sealingContext(_ row: RawStatement) -> String {
        SealingContext.cookie(row.string(Self.id.rawValue), account: row.string(Self.accountId.rawValue), name: row.string(Self.name.rawValue),
                              domain: row.string(Self.domain.rawValue), path: row.string(Self.path.rawValue),
                              expiresAt: row.optionalInt64(Self.expiresAt.rawValue), secure: row.int64(Self.secure.rawValue) != 0,
                              httpOnly: row.int64(Self.httpOnly.rawValue) != 0)
    }
}
