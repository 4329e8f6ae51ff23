import AuthDeckCore
import AuthDeckSQLite

/// The accounts table's columns (`TableColumn`): the store reads and writes by them
/// (`AccountColumn.value(of:)`), the front names the columns it reads from them.
public enum AccountColumn: Int32, TableColumn {
    case id, providerId, subject, username, displayName, realm, createdAt, lastSignInAt, lastUsedAt
    case errorClass, errorCode, errorRemedy, errorAt, failedAttempts, quarantinedAt, quarantineReason

    public static let table = "accounts"

    public var name: String {
        switch self {
        case .id: "id"
        case .providerId: "provider_id"
        case .subject: "subject"
        case .username: "username"
        case .displayName: "display_name"
        case .realm: "realm"
        case .createdAt: "created_at"
        case .lastSignInAt: "last_sign_in_at"
        case .lastUsedAt: "last_used_at"
        case .errorClass: "error_class"
        case .errorCode: "error_code"
        case .errorRemedy: "error_remedy"
        case .errorAt: "error_at"
        case .failedAttempts: "failed_attempts"
        case .quarantinedAt: "quarantined_at"
        case .quarantineReason: "quarantine_reason"
        }
    }

    /// The account on `row`, a row of `SELECT \(list) FROM accounts`, as both binaries read it;
    /// its realm is the same String as `realmBefore` (the previous row's) when the text is the
    /// same (every account of a tenant has the same realm: an allocation fewer a row).
    public static func account(_ row: RawStatement, realmBefore: String? = nil) -> Account {
        typealias C = AccountColumn
        var error: AccountError?
        if let cls = row.optionalString(C.errorClass.rawValue), let errorClass = ErrorClass(rawValue: cls) {
            error = AccountError(errorClass: errorClass, code: row.string(C.errorCode.rawValue), remedy: row.string(C.errorRemedy.rawValue),
                                 at: row.instant(C.errorAt.rawValue))
        }
        return Account(id: row.string(C.id.rawValue), providerId: row.string(C.providerId.rawValue), subject: row.string(C.subject.rawValue),
                       username: row.string(C.username.rawValue), displayName: row.string(C.displayName.rawValue),
                       realm: row.optionalString(C.realm.rawValue, sameAs: realmBefore), createdAt: row.instant(C.createdAt.rawValue),
                       lastSignInAt: row.optionalInstant(C.lastSignInAt.rawValue), lastUsedAt: row.optionalInstant(C.lastUsedAt.rawValue),
                       lastError: error, failedAttempts: Int(row.int64(C.failedAttempts.rawValue)),
                       quarantinedAt: row.optionalInstant(C.quarantinedAt.rawValue), quarantineReason: row.optionalString(C.quarantineReason.rawValue))
    }
}
