import AuthDeckCore
import GRDB

/// The accounts table's columns as the store reads and writes them, described once: their
/// names, their order in every SELECT of whole accounts (`list`), the position each is read
/// at, and the value each takes from an `Account`.
///
/// Why: the SELECT, the reader (`row.string(0)` … `optionalString(15)`) and the writer (16
/// positional binds) each spelled the order; a column added to one and not the others read
/// one field as another without an error.
enum AccountColumn: Int32, CaseIterable {
    case id, providerId, subject, username, displayName, realm, createdAt, lastSignInAt, lastUsedAt
    case errorClass, errorCode, errorRemedy, errorAt, failedAttempts, quarantinedAt, quarantineReason

    /// The column's name in SQL.
    var name: String {
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
    static let list = allCases.map(\.name).joined(separator: ", ")

    /// The value this column holds for `a`.
    func value(of a: Account) -> (any DatabaseValueConvertible)? {
        switch self {
        case .id: a.id
        case .providerId: a.providerId
        case .subject: a.subject
        case .username: a.username
        case .displayName: a.displayName
        case .realm: a.realm
        case .createdAt: a.createdAt.secondsSinceEpoch
        case .lastSignInAt: a.lastSignInAt?.secondsSinceEpoch
        case .lastUsedAt: a.lastUsedAt?.secondsSinceEpoch
        case .errorClass: a.lastError?.errorClass.rawValue
        case .errorCode: a.lastError?.code
        case .errorRemedy: a.lastError?.remedy
        case .errorAt: a.lastError?.at.secondsSinceEpoch
        case .failedAttempts: a.failedAttempts
        case .quarantinedAt: a.quarantinedAt?.secondsSinceEpoch
        case .quarantineReason: a.quarantineReason
        }
    }
}
