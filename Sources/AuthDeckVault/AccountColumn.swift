/// The accounts table's columns, described once for both binaries: their names and their order
/// in every SELECT of whole accounts (`list`). The store reads and writes by it
/// (`AccountColumn.value(of:)`), the front names the columns it reads from it.
///
/// Why: the SELECT, the reader (`row.string(0)` … `optionalString(15)`) and the writer (16
/// positional binds) each spelled the order, and the front its own list; a column added to one
/// and not the others read one field as another without an error.
public enum AccountColumn: Int32, CaseIterable, Sendable {
    case id, providerId, subject, username, displayName, realm, createdAt, lastSignInAt, lastUsedAt
    case errorClass, errorCode, errorRemedy, errorAt, failedAttempts, quarantinedAt, quarantineReason

    /// The column's name in SQL.
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

    /// Every column in reading order, for `SELECT \(list) FROM accounts`.
    public static let list = allCases.map(\.name).joined(separator: ", ")

    /// `columns`' names for a SELECT that reads them in that order.
    public static func names(_ columns: [AccountColumn]) -> String {
        columns.map(\.name).joined(separator: ", ")
    }
}
