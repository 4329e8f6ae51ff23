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
        // The lease step of a renewal (`RenewalRun`), and its release: never "fresh", so always taken.
        let run = run(accountId, isFresh: { _ in false })
        _ = try await run.lease()
        defer { run.release() }
        var current = try run.read()
        change(&current.credentials)
        try store.replaceCredentials(current.credentials, accountId: accountId)
        try? store.append(DeckEvent(at: clock.now(), kind: .refreshed, accountId: accountId, providerId: current.account.providerId, detail: detail))
        return current
    }
}
