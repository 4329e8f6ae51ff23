/// An error as authdeck reports it: the one sentence a person reads (after `authdeck: `) and
/// the exit status a script tests (`ExitStatus`).
///
/// Why: the binary mapped seven error types to wording and status in `report` and again in a
/// catch per command (a token's, cookies', exec's and the helpers' each turned
/// `NeedsSignIn` and `AuthFailure` into the same two things). Every error a use case throws
/// conforms, so the mapping is written once, by the type that knows what went wrong.
public protocol ReportedError: Error {
    /// What went wrong and what to do, in one sentence (empty: nothing to print).
    var sentence: String { get }
    var exitStatus: Int32 { get }
}

extension AuthFailure: ReportedError {
    public var sentence: String { description }
    public var exitStatus: Int32 { errorClass.exitCode }

    /// The failure with its remedy led by `accountId`, unless it names the account already
    /// (many remedies begin with it: "x: x holds no refresh token" was said twice).
    public func naming(_ accountId: String) -> AuthFailure {
        guard !description.contains(accountId) else { return self }
        var named = self
        named.remedy = "\(accountId): \(remedy)"
        return named
    }
}
