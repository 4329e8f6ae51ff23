import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
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
        await #expect(throws: AuthFailure.self) {
            try await SignOut(store: store, clock: clock).run(account, adapter: Adapter(.oidc, revokeFails: true))
        }
        #expect(try store.account(id: account.account.id) == account, "the refresh token is kept to retry")
    }

    @Test func aProviderGoneFromTheConfigStillSignsOutLocally() async throws {
        let (store, account) = try setUp()
        let outcome = try await SignOut(store: store, clock: clock).run(account, adapter: nil)
        #expect(outcome == SignOut.Outcome(revokedAtServer: false, keptRegistration: false))
        #expect(try store.account(id: account.account.id) == nil)
    }
}
