import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckConfig
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// Sign-out over a real store: what goes, what stays, what the event says, and that a failed
/// revocation deletes nothing (the deck and `authdeck logout` both run this one use case).
@Suite struct SignOutTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()

    /// An adapter of a given kind whose revocation succeeds or fails as told, and counts.
    final class Adapter: ProviderAdapter, @unchecked Sendable {
        let profile: ProviderProfile
        var capabilities: ProviderCapabilities { .of(profile) }
        let revokeFails: Bool
        let noRevocation: Bool
        private(set) var revoked = 0

        init(_ kind: ProviderKind, revokeFails: Bool = false, noRevocation: Bool = false) {
            profile = ProviderProfile(id: "work", kind: kind)
            self.revokeFails = revokeFails
            self.noRevocation = noRevocation
        }

        func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
            throw AuthFailure(.misconfigured, code: "unused", remedy: "unused")
        }
        func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials {
            throw AuthFailure(.misconfigured, code: "unused", remedy: "unused")
        }
        func revoke(_ stored: StoredAccount) async throws {
            if revokeFails { throw AuthFailure(.transient, code: "http 503", remedy: "the server is unavailable") }
            if noRevocation { throw RevocationUnavailable(reason: "the issuer names no revocation endpoint") }
            revoked += 1
        }
    }

    func setUp() throws -> (DeckStore, StoredAccount) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let account = DeckFixture(now: clock.now()).accounts[2]
        try store.insert(account)
        return (store, account)
    }

    func lastEvent(_ store: DeckStore, _ id: String) throws -> String? {
        try store.events(since: nil, accountId: id, limit: 1).first.map { "\($0.kind.rawValue): \($0.detail)" }
    }

    @Test func aProviderThatRevokesIsAskedFirstThenEverythingGoes() async throws {
        let (store, account) = try setUp()
        let adapter = Adapter(.oidc)
        let outcome = try await SignOut(store: store, clock: clock).run(account, adapter: adapter)
        #expect(outcome == SignOut.Outcome(revokedAtServer: true, keptRegistration: false))
        #expect(adapter.revoked == 1)
        #expect(try store.account(id: account.account.id) == nil)
        #expect(try lastEvent(store, account.account.id) == "logout: revoked at the server; credentials deleted")
    }

    /// An OIDC issuer with no revocation endpoint: signed out here, and nobody is told the grant
    /// was revoked (it said "revoked at the server" for a grant the server never heard of).
    @Test func anIssuerWithoutRevocationIsNotClaimedRevoked() async throws {
        let (store, account) = try setUp()
        let outcome = try await SignOut(store: store, clock: clock).run(account, adapter: Adapter(.oidc, noRevocation: true))
        #expect(outcome == SignOut.Outcome(revokedAtServer: false, keptRegistration: false,
                                           revocationUnavailable: "the issuer names no revocation endpoint"))
        #expect(try store.account(id: account.account.id) == nil)
        #expect(try lastEvent(store, account.account.id) == "logout: credentials deleted locally (the issuer names no revocation endpoint)")
    }

    @Test func localSkipsTheServerAndAProviderWithoutRevocationIsNotAsked() async throws {
        let (store, account) = try setUp()
        let oidc = Adapter(.oidc)
        _ = try await SignOut(store: store, clock: clock).run(account, adapter: oidc, local: true)
        #expect(oidc.revoked == 0)
        #expect(try lastEvent(store, account.account.id) == "logout: credentials deleted locally")
        try store.insert(account)
        let azure = Adapter(.azuread)  // Azure AD has no revocation endpoint for public clients
        #expect(try await SignOut(store: store, clock: clock).run(account, adapter: azure).revokedAtServer == false)
        #expect(azure.revoked == 0)
        #expect(try store.account(id: account.account.id) == nil)
    }

    @Test func aFailedRevocationDeletesNothing() async throws {
        let (store, account) = try setUp()
        let id = account.account.id
        try store.setDefaultAccount(id, provider: "work")
        let stopped = await #expect(throws: SignOut.Stopped.self) {
            try await SignOut(store: store, clock: clock).run(account, adapter: Adapter(.oidc, revokeFails: true))
        }
        // One wording for both callers: the CLI prints `sentence`, the deck `reason` after the name.
        #expect(stopped?.reason == "could not revoke at the server: the server is unavailable [http 503]. Nothing was deleted; "
                + "fix that and retry, or sign out locally only (`authdeck logout \(id) --local`)")
        #expect(stopped?.sentence == "\(id): " + (stopped?.reason ?? ""))
        #expect(stopped?.exitStatus == ExitStatus.transient)
        #expect(try store.account(id: id) == account, "the refresh token is kept to retry")
        #expect(try store.defaultAccount(provider: "work") == id, "a sign-out that stopped changes nothing")
    }

    // MARK: The rules `authdeck logout` and the deck's `d` share (issue 42)

    /// A default naming the signed-out account is cleared by the use case itself, so neither
    /// caller can forget it; another provider's default is kept.
    @Test func signingOutTheDefaultClearsItAndNoOtherDefault() async throws {
        let (store, account) = try setUp()
        try store.setDefaultAccount(account.account.id, provider: "work")
        try store.setDefaultAccount("fb/0000a004", provider: "fb")
        let outcome = try await SignOut(store: store, clock: clock).run(account, adapter: Adapter(.azuread))
        #expect(outcome.wasDefault)
        #expect(try store.defaultAccount(provider: "work") == nil)
        #expect(try store.defaultAccount(provider: "fb") == "fb/0000a004")
        // Not the default: nothing said, nothing cleared.
        try store.insert(account)
        try store.setDefaultAccount("work/other", provider: "work")
        #expect(try await SignOut(store: store, clock: clock).run(account, adapter: Adapter(.azuread)).wasDefault == false)
        #expect(try store.defaultAccount(provider: "work") == "work/other")
    }

    /// Issue 42: a dynamic client registration goes with its provider's last account, asked
    /// (`--clear-registration`, the deck's `c`); with other accounts left it is kept and the
    /// outcome names them. Quarantined accounts count: a restore brings them back.
    @Test func clearingTheRegistrationDeletesItWithTheProvidersLastAccountOnly() async throws {
        let (store, account) = try setUp()
        let second = DeckFixture(now: clock.now()).accounts[1]  // another work account
        try store.insert(second)
        let adapter = RegisteredClientAdapter(ProviderProfile(id: "work", kind: .oidc))
        let signOut = SignOut(store: store, clock: clock)
        let first = try await signOut.run(account, adapter: adapter, clearRegistration: true)
        #expect(first.clientRegistration == .keptFor([second.account.id]))
        #expect(adapter.unregistered == 0 && adapter.revoked == 1)
        let last = try await signOut.run(second, adapter: adapter, clearRegistration: true)
        #expect(last.clientRegistration == .deleted(RegisteredClientAdapter.summary))
        #expect(try adapter.unregistered == 1 && adapter.registrationSummary() == nil)
        // Without being asked, the last account's sign-out leaves the registration alone.
        try store.insert(account)
        let kept = RegisteredClientAdapter(ProviderProfile(id: "work", kind: .oidc))
        #expect(try await signOut.run(account, adapter: kept).clientRegistration == nil)
        #expect(kept.unregistered == 0)
    }

    /// The issuer cannot delete the client: the account is signed out (its sign-out is done),
    /// the registration kept to try again, the failure said — and the default, cleared before
    /// the issuer was asked, does not name the deleted account (`logout --clear-registration`
    /// left it set when the issuer failed).
    @Test func anIssuerThatCannotUnregisterKeepsTheRegistrationAndStillClearsTheDefault() async throws {
        let (store, account) = try setUp()
        let id = account.account.id
        try store.setDefaultAccount(id, provider: "work")
        let adapter = RegisteredClientAdapter(ProviderProfile(id: "work", kind: .oidc), unregistrationFails: true)
        let stopped = await #expect(throws: SignOut.Stopped.self) {
            try await SignOut(store: store, clock: clock).run(account, adapter: adapter, clearRegistration: true)
        }
        #expect(stopped?.reason.hasPrefix("signed out, but its provider's client registration could not be deleted: ") == true)
        #expect(stopped?.reason.hasSuffix("it is kept: `authdeck providers unregister work` tries again") == true)
        #expect(try store.account(id: id) == nil)
        #expect(try store.defaultAccount(provider: "work") == nil)
        #expect(try adapter.registrationSummary() != nil)
    }

    /// Clearing a registration where there is none is the request's mistake, refused before the
    /// server is asked or anything deleted (the CLI's exit 2, for every caller).
    @Test func clearingARegistrationThatIsNotThereIsRefusedBeforeAnythingChanges() async throws {
        let (store, account) = try setUp()
        let adapter = Adapter(.azuread)
        let refusal = await #expect(throws: Refusal.self) {
            try await SignOut(store: store, clock: clock).run(account, adapter: adapter, clearRegistration: true)
        }
        #expect(refusal?.kind == .usage && refusal?.message.contains("OAM accounts and OIDC providers registered dynamically") == true)
        #expect(adapter.revoked == 0)
        #expect(try store.account(id: account.account.id) == account)
    }

    /// As `authdeck logout` and the deck call it: the adapter built from config by the wiring.
    /// A configured provider whose adapter cannot be built is a revocation that failed (nothing
    /// deleted) unless the sign-out is local; a provider gone from config signs out locally.
    @Test func theAdapterComesFromConfigAndOneThatCannotBeBuiltDeletesNothingUnlessLocal() async throws {
        let (store, account) = try setUp()
        try DeckFixture.configTOML.write(toFile: dir.file("config.toml"), atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: dir.file("config.toml"), required: true)
        let broken = ProviderWiring(store: store, clock: clock, environment: [:], adapters: { profile, _, _ in
            throw AuthFailure(.misconfigured, code: "config", remedy: "provider \"\(profile.id)\": environment variable X is not set")
        })
        let signOut = SignOut(store: store, clock: clock)
        let stopped = await #expect(throws: SignOut.Stopped.self) {
            try await signOut.run(account, wiring: broken, config: config)
        }
        #expect(stopped?.reason.hasPrefix("could not revoke at the server: provider \"work\": environment variable X is not set") == true)
        #expect(try store.account(id: account.account.id) == account)
        #expect(try await signOut.run(account, wiring: broken, config: config, local: true).revokedAtServer == false)
        #expect(try store.account(id: account.account.id) == nil)
        try store.insert(account)
        #expect(try await signOut.run(account, wiring: broken, config: nil) == SignOut.Outcome(revokedAtServer: false, keptRegistration: false))
        #expect(try store.account(id: account.account.id) == nil)
    }

    /// `authdeck logout --local` of a record edited without the key: deleted unopened, and the
    /// event says why.
    @Test func aTamperedRecordIsDeletedUnopened() throws {
        let (store, account) = try setUp()
        try SignOut(store: store, clock: clock).deleteUnopened(accountId: account.account.id)
        #expect(try store.account(id: account.account.id) == nil)
        #expect(try lastEvent(store, account.account.id) == "tampered: signed out locally: its record had been edited without the key")
    }

    @Test func aProviderGoneFromTheConfigStillSignsOutLocally() async throws {
        let (store, account) = try setUp()
        let outcome = try await SignOut(store: store, clock: clock).run(account, adapter: nil)
        #expect(outcome == SignOut.Outcome(revokedAtServer: false, keptRegistration: false))
        #expect(try store.account(id: account.account.id) == nil)
    }
}
