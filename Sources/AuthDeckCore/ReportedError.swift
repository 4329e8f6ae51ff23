/// An error as authdeck reports it: the one sentence a person reads (after `authdeck: `) and
/// the exit status a script tests (`ExitStatus`).
///
/// Why: every error a use case throws conforms, so wording and status are decided once, by
/// the type that knows what went wrong — not in `report` and again in a catch per command
/// (`token`, `cookies`, `exec` and the helpers would each turn `NeedsSignIn` and
/// `AuthFailure` into the same two things).
public protocol ReportedError: Error {
    /// What went wrong and what to do, in one sentence (empty: nothing to print).
    var sentence: String { get }
    var exitStatus: Int32 { get }
}

extension AuthFailure: ReportedError {
    public var sentence: String { description }
    /// A flow the provider does not offer is the request's mistake (usage, 2), as
    /// `login --password` of a Facebook provider is refused before any adapter runs; the
    /// provider kind must not decide the status of the same mistake.
    public var exitStatus: Int32 { FlowNotOffered.codes.contains(code) ? ExitStatus.usage : errorClass.exitCode }

    /// The codes of "this provider does not offer that sign-in flow", whichever adapter says it.
    public enum FlowNotOffered {
        public static let grantNotRegistered = "grant_not_registered"
        public static let passwordDisabled = "password_disabled"
        public static let noDeviceEndpoint = "no_device_endpoint"
        public static let noAuthorizationEndpoint = "no_authorization_endpoint"
        /// An adapter asked for a flow its kind has no way to run.
        public static let unsupportedFlow = "unsupported"
        public static let codes: Set<String> = [grantNotRegistered, passwordDisabled, noDeviceEndpoint, noAuthorizationEndpoint, unsupportedFlow]
    }

    /// The failure with its remedy led by `accountId`, unless it names the account already
    /// (many remedies begin with it, and "x: x holds no refresh token" says it twice).
    public func naming(_ accountId: String) -> AuthFailure {
        guard !description.contains(accountId) else { return self }
        var named = self
        named.remedy = "\(accountId): \(remedy)"
        return named
    }
}
