/// What a failure means for the account, which decides what authdeck does next.
///
/// Adapters map every wire error into one of these; nothing downstream looks at raw codes.
public enum ErrorClass: String, CaseIterable, Sendable, Codable {
    /// Network, timeout, 5xx, 429: keep every credential and retry later.
    case transient
    /// The grant is no good any more (invalid_grant, MFA, consent…): a person must sign in.
    case needsInteraction
    /// The provider config is wrong (bad client id, redirect mismatch): fix the config.
    case misconfigured
    /// The user said no (access_denied, declined device code).
    case declined

    /// The class's name in `--json` output: snake_case like every other name there (authdeck(1)
    /// lists the four). The raw value is what the store's `error_class` column holds, so it stays.
    public var jsonName: String {
        switch self {
        case .transient: "transient"
        case .needsInteraction: "needs_interaction"
        case .misconfigured: "misconfigured"
        case .declined: "declined"
        }
    }

    /// The class named either way: its `--json` name, or the raw value older events and the
    /// store's column hold. Why both: a renewal failure's event detail begins with the class,
    /// and events written before the JSON spelling was used there are still in the store.
    public init?(named name: some StringProtocol) {
        guard let found = ErrorClass.allCases.first(where: { $0.jsonName == name || $0.rawValue == name }) else { return nil }
        self = found
    }

    /// The process exit status a command uses when it fails with this class.
    public var exitCode: Int32 {
        switch self {
        case .transient: return ExitStatus.transient
        case .needsInteraction: return ExitStatus.needsSignIn
        case .misconfigured, .declined: return ExitStatus.failure
        }
    }
}

/// The exit statuses every authdeck command uses, documented in authdeck(1).
public enum ExitStatus {
    public static let ok: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
    public static let needsSignIn: Int32 = 3
    public static let transient: Int32 = 4
}
