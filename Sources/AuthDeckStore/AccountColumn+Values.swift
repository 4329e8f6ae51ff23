import AuthDeckCore
import AuthDeckVault
import GRDB

/// What the store writes in each column of the accounts table (`AccountColumn`, in the vault).
extension AccountColumn {
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
