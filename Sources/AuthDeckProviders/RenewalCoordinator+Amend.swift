import AuthDeckCore

extension RenewalCoordinator {
    /// Changes what `accountId` holds under its renewal lease — read again once the lease is
    /// held, changed by `change`, written back with `detail` as a `refreshed` event — and
    /// returns it as stored.
    ///
    /// Why under the lease: a renewal commits the account's whole credentials, so a change made
    /// from an earlier read (a WebGate token kept or dropped beside a user token another process
    /// is renewing) would put the old user token back. The last error is left as it was: the
    /// change says nothing about the grant.
    public func amend(_ accountId: String, detail: String, _ change: (inout Credentials) -> Void) async throws -> StoredAccount {
        let holder = leaseHolder()
        _ = try await lease(accountId, holder: holder, unlessDone: { _ in false })
        defer { try? store.releaseRenewalLease(accountId: accountId, holder: holder) }
        guard var current = try store.account(id: accountId) else {
            throw AuthFailure(.misconfigured, code: "gone", remedy: "account \(accountId) no longer exists")
        }
        change(&current.credentials)
        try store.replaceCredentials(current.credentials, accountId: accountId)
        try? store.append(DeckEvent(at: clock.now(), kind: .refreshed, accountId: accountId, providerId: current.account.providerId, detail: detail))
        return current
    }
}
