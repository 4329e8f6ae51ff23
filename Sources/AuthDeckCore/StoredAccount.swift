/// An account together with its credentials: the unit the store loads and policies judge.
public struct StoredAccount: Equatable, Hashable, Sendable {
    public var account: Account
    public var credentials: Credentials

    public init(account: Account, credentials: Credentials = .empty) {
        self.account = account
        self.credentials = credentials
    }
}
