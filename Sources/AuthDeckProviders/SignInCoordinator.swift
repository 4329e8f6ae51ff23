import AuthDeckCore

/// Runs a sign-in and saves its outcome: the account for the same provider and subject is
/// updated (never duplicated), or a new one is created; every step is an audit event.
public struct SignInCoordinator: Sendable {
    public let store: any AccountStore
    public let clock: any WallClock

    public init(store: any AccountStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    public func signIn(with adapter: any ProviderAdapter, flow: SignInFlow, presenter: any SignInPresenter,
                       options: SignInOptions) async throws -> StoredAccount {
        let profile = adapter.profile
        try store.append(DeckEvent(at: clock.now(), kind: .signInStarted, providerId: profile.id, detail: "flow \(flow.rawValue)"))
        let result: SignInResult
        do {
            // Every adapter's claims pass one check before anything is saved.
            result = try await adapter.signIn(flow: flow, presenter: presenter, options: options).checkedIdentity(provider: profile.id)
        } catch let failure as AuthFailure {
            try? store.append(DeckEvent(at: clock.now(), kind: .signInFailed, providerId: profile.id,
                                        detail: "\(failure.code): \(failure.remedy)"))
            throw failure
        }
        let now = clock.now()
        let existing = try store.accounts(providerId: profile.id, subject: result.subject)
            .max { ($0.account.lastSignInAt ?? $0.account.createdAt) < ($1.account.lastSignInAt ?? $1.account.createdAt) }
        var account = existing?.account ?? Account(id: Account.makeID(provider: profile.id), providerId: profile.id,
                                                   subject: result.subject, username: result.username, createdAt: now)
        account.username = result.username
        account.displayName = result.displayName
        account.realm = result.realm
        account.lastSignInAt = now
        account.lastError = nil
        account.failedAttempts = 0
        account.quarantinedAt = nil
        account.quarantineReason = nil
        var credentials = result.credentials
        if let previous = existing?.credentials.refreshToken, var fresh = credentials.refreshToken {
            fresh.generation = previous.generation + 1
            credentials.refreshToken = fresh
        }
        try store.saveSignIn(account, credentials: credentials, event: DeckEvent(
            at: now, kind: .signInSucceeded, accountId: account.id, providerId: profile.id,
            detail: existing == nil ? "new account \(account.username)" : "signed in again"))
        return StoredAccount(account: account, credentials: credentials)
    }
}
