import AuthDeckCore

/// What a cell means, which a theme turns into colour and attributes. Code names roles,
/// never colours.
public enum Role: String, CaseIterable, Sendable, Codable {
    case normal, header, border, dim, accent, selection, status, modal
    case valid, expiringSoon, expired, needsSignIn, stale, failed

    /// The role of a state badge.
    public static func of(_ state: AccountState) -> Role {
        switch state {
        case .signedIn: return .valid
        case .expiringSoon, .renewDue: return .expiringSoon
        case .expired: return .expired
        case .needsSignIn: return .needsSignIn
        case .stale: return .stale
        case .failed: return .failed
        }
    }
}
