/// Disk space set aside for one renewal's result before its refresh token is spent.
///
/// With strict one-use refresh tokens a renewal whose commit fails (a full disk) or whose
/// process is killed before the commit would lose the account: the server has spent the old
/// token. The store reserves a private file first; the new credentials are sealed into it
/// before the commit (and again, synced, if the commit fails), and the next command to open the
/// store commits them once the renewal's process is gone.
public struct RenewalRescue: Sendable, Equatable {
    /// The reserved file.
    public let path: String

    public init(path: String) { self.path = path }
}
