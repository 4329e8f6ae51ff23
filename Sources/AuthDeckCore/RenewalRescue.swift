/// Disk space set aside for one renewal's result before its refresh token is spent.
///
/// With strict one-use refresh tokens a renewal whose commit fails (a full disk) would lose
/// the account: the server has spent the old token. The store reserves a private file first;
/// if the commit fails, the new credentials are sealed into it and the next command commits them.
public struct RenewalRescue: Sendable, Equatable {
    /// The reserved file.
    public let path: String

    public init(path: String) { self.path = path }
}
