import Foundation
import AuthDeckCore

/// OAM sign-in with the mobile SDK's credential rules, over the store port.
///
/// Connectivity: online (the server), offline (the stored verifier, only when
/// OfflineAuthAllowed), auto (the server, falling back to offline when it cannot be reached).
/// After an online sign-in it keeps what the remembrance says (auto-login > remember
/// credentials > remember username), and the offline verifier when offline sign-in is
/// allowed. A failed sign-in that used a stored password deletes that password; after
/// MaxLoginAttempts failed offline attempts the offline verifier and the remembered password
/// are deleted (tokens stay: they were issued by the server, not by the offline check).
public struct OAMLoginService: Sendable {
    public enum Mode: String, Sendable { case online, offline, auto }

    public enum Outcome: Sendable {
        case online(StoredAccount)
        case offline(StoredAccount)
    }

    let adapter: any ProviderAdapter
    let store: any AccountStore
    let clock: any WallClock
    let options: OAMCredentialOptions

    public init(adapter: any ProviderAdapter, store: any AccountStore, clock: any WallClock) {
        self.adapter = adapter
        self.store = store
        self.clock = clock
        options = OAMCredentialOptions(adapter.profile.options)
    }

    /// The service for `adapter` when its provider signs in by OAM's credential rules (an OAM
    /// adapter), else nil: callers need not know provider kinds.
    public init?(for adapter: any ProviderAdapter, store: any AccountStore, clock: any WallClock) {
        guard adapter is OAMAdapter else { return nil }
        self.init(adapter: adapter, store: store, clock: clock)
    }

    /// The provider's account for `username` (or its only one), quarantined or not.
    public func existing(username: String?) throws -> StoredAccount? {
        let mine = try store.accounts(providerId: adapter.profile.id, subject: nil)
        if let username { return mine.first { $0.account.username.lowercased() == username.lowercased() } }
        return mine.count == 1 ? mine[0] : nil
    }

    /// The stored password, when the remembrance lets `login` use it without asking.
    public func storedPassword(_ stored: StoredAccount?) -> Secret? {
        guard let stored, let mode = stored.credentials.extras["oam.remember"]?.exposedValue,
              mode == OAMCredentialOptions.Remembrance.autoLogin.rawValue || mode == OAMCredentialOptions.Remembrance.credentials.rawValue
        else { return nil }
        return stored.credentials.extras["oam.password"]
    }

    /// What this sign-in keeps: the person's choice, else the account's kept preference (so a
    /// new password replaces the remembered one), else the provider's default; a choice the
    /// provider forbids is refused.
    public func remembrance(requested: OAMCredentialOptions.Remembrance?,
                            existing: StoredAccount?) throws -> OAMCredentialOptions.Remembrance {
        if let requested {
            guard options.allows(requested) else {
                throw AuthFailure(.misconfigured, code: "not_allowed", remedy: "provider \"\(adapter.profile.id)\" does not allow remembering \(requested.rawValue)")
            }
            return requested
        }
        if let kept = existing?.credentials.extras["oam.remember"].flatMap({ OAMCredentialOptions.Remembrance(rawValue: $0.exposedValue) }),
           options.allows(kept) {
            return kept
        }
        return options.remembrance(requested: nil) ?? .none
    }

    public func signIn(mode: Mode, username: String, password: Secret, usedStoredPassword: Bool,
                       remember: OAMCredentialOptions.Remembrance?, presenter: any SignInPresenter) async throws -> Outcome {
        let remembrance = try remembrance(requested: remember, existing: try existing(username: username))
        switch mode {
        case .offline:
            return .offline(try offline(username: username, password: password))
        case .online, .auto:
            do {
                return .online(try await online(username: username, password: password, remembrance: remembrance, presenter: presenter))
            } catch let f as AuthFailure {
                if f.errorClass == .transient, mode == .auto, options.offlineAuthAllowed {
                    await presenter.present(.notice("The OAM server cannot be reached (\(f.code)); verifying offline."))
                    return .offline(try offline(username: username, password: password))
                }
                if usedStoredPassword, f.errorClass == .needsInteraction, var stored = try existing(username: username) {
                    stored.credentials.extras["oam.password"] = nil
                    try store.replaceCredentials(stored.credentials, accountId: stored.account.id)
                    try store.append(DeckEvent(at: clock.now(), kind: .signInFailed, accountId: stored.account.id,
                                               providerId: stored.account.providerId, detail: "stored password rejected and deleted"))
                    throw AuthFailure(f.errorClass, code: f.code, remedy: f.remedy + "; the stored password was deleted")
                }
                throw f
            }
        }
    }

    func online(username: String, password: Secret, remembrance: OAMCredentialOptions.Remembrance,
                presenter: any SignInPresenter) async throws -> StoredAccount {
        let coordinator = SignInCoordinator(store: store, clock: clock)
        var signed = try await coordinator.signIn(with: adapter, flow: .password, presenter: presenter,
                                                  options: SignInOptions(username: username, password: password))
        var extras = signed.credentials.extras
        extras["oam.remember"] = Secret(remembrance.rawValue)
        switch remembrance {
        case .autoLogin, .credentials: extras["oam.password"] = password
        case .username, .none: extras["oam.password"] = nil
        }
        extras["oam.verifier"] = options.offlineAuthAllowed ? try OfflineVerifier.make(password) : nil
        signed.credentials.extras = extras
        try store.replaceCredentials(signed.credentials, accountId: signed.account.id)
        return signed
    }

    /// Checks the password against the stored verifier; counts failures and deletes the
    /// verifier and the remembered password at MaxLoginAttempts.
    func offline(username: String, password: Secret) throws -> StoredAccount {
        guard options.offlineAuthAllowed else {
            throw AuthFailure(.misconfigured, code: "offline_not_allowed", remedy: "provider \"\(adapter.profile.id)\" does not allow offline sign-in (OfflineAuthAllowed)")
        }
        guard var stored = try existing(username: username), let verifier = stored.credentials.extras["oam.verifier"] else {
            throw AuthFailure(.needsInteraction, code: "no_offline_credentials", remedy: "no stored credentials for \(username); sign in online first")
        }
        let now = clock.now()
        if try OfflineVerifier.verify(password, against: verifier) {
            stored.account.failedAttempts = 0
            stored.account.lastUsedAt = now
            try store.update(stored.account)
            try store.append(DeckEvent(at: now, kind: .signInSucceeded, accountId: stored.account.id, providerId: stored.account.providerId,
                                       detail: "verified offline"))
            return stored
        }
        stored.account.failedAttempts += 1
        let left = options.maxLoginAttempts - stored.account.failedAttempts
        if left <= 0 {
            let hadPassword = stored.credentials.extras["oam.password"] != nil
            stored.credentials.extras["oam.verifier"] = nil
            stored.credentials.extras["oam.password"] = nil
            stored.account.failedAttempts = 0
            try store.update(stored.account)
            try store.replaceCredentials(stored.credentials, accountId: stored.account.id)
            let deleted = hadPassword ? "the offline verifier and the remembered password were deleted" : "the offline verifier was deleted"
            let kept = stored.credentials.accessTokens.isEmpty && stored.credentials.refreshToken == nil
                ? "the username and preferences are kept"
                : "the tokens, username and preferences are kept (authdeck token still answers while they are valid)"
            try store.append(DeckEvent(at: now, kind: .signInFailed, accountId: stored.account.id, providerId: stored.account.providerId,
                                       detail: "offline sign-in failed \(options.maxLoginAttempts) times; \(deleted); \(kept)"))
            throw AuthFailure(.needsInteraction, code: "locked",
                              remedy: "the password is wrong; after \(options.maxLoginAttempts) failed offline attempts \(deleted); \(kept) — sign in online to verify offline again")
        }
        try store.update(stored.account)
        try store.append(DeckEvent(at: now, kind: .signInFailed, accountId: stored.account.id, providerId: stored.account.providerId,
                                   detail: "offline sign-in failed; \(left) attempt(s) left"))
        throw AuthFailure(.needsInteraction, code: "wrong_password", remedy: "the password is wrong (\(left) offline attempt(s) left)")
    }
}
