import Testing
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckProviders
import AuthDeckTestSupport

/// Issue 38, section 5: a sign-in whose claims hold a control character saves nothing.
/// `bob\u{0}evil` was saved, listed as `bob` (read back cut at the NUL), made `bob` ambiguous,
/// and was refused ever after as "changed without the key". Every adapter's result passes
/// `SignInCoordinator`, so one adapter answering as told stands for all of them.
@Suite struct SignInClaimsTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()

    /// Answers every sign-in with the next identity it was given.
    final class Adapter: ProviderAdapter, @unchecked Sendable {
        let profile = ProviderProfile(id: "work", kind: .oidc, clientId: "c")
        var capabilities: ProviderCapabilities { .of(profile) }
        var next: SignInResult?

        func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
            guard let next else { throw AuthFailure(.misconfigured, code: "unused", remedy: "no identity was given") }
            return next
        }
        func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials {
            throw AuthFailure(.misconfigured, code: "unused", remedy: "unused")
        }
        func revoke(_ stored: StoredAccount) async throws {}
    }

    struct NoPrompts: SignInPresenter { func present(_ prompt: SignInPrompt) async {} }

    static func identity(_ subject: String, _ username: String, name: String = "Bob", realm: String? = nil) -> SignInResult {
        SignInResult(subject: subject, username: username, displayName: name, realm: realm,
                     credentials: Credentials(refreshToken: RefreshToken(id: "rt-\(subject.count)", value: Secret("rt-value"), generation: 1,
                                                                         obtainedAt: Instant(secondsSinceEpoch: 1_800_000_000))))
    }

    @Test func claimsWithAControlCharacterSaveNothing() async throws {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        let adapter = Adapter()
        let coordinator = SignInCoordinator(store: store, clock: clock)
        func signIn(_ result: SignInResult) async throws -> StoredAccount {
            adapter.next = result
            return try await coordinator.signIn(with: adapter, flow: .device, presenter: NoPrompts(), options: SignInOptions())
        }
        let bob = try await signIn(Self.identity("sub-bob", "bob"))
        let hostile = [Self.identity("sub-evil", "bob\u{0}evil"), Self.identity("sub-evil", "bob\nurl=https://evil.example"),
                       Self.identity("sub-evil", "bob\u{1B}[2J"), Self.identity("sub-evil", "bob\u{85}"),
                       Self.identity("sub\u{0}evil", "eve"), Self.identity("sub-evil", "eve", realm: "tenant\u{0}other"),
                       // The attack pass: a zero-width space made an account look exactly like bob.
                       Self.identity("sub-evil", "bob\u{200B}"), Self.identity("sub-evil", "bob\u{2028}"), Self.identity("sub-evil", "\u{202E}bob")]
        for result in hostile {
            await #expect(throws: AuthFailure.self, "\(result.username.debugDescription) \(result.subject.debugDescription)") {
                _ = try await signIn(result)
            }
            do { _ = try await signIn(result) } catch let failure as AuthFailure {
                #expect(failure.code == "bad_claim" && (failure.remedy.contains("control character U+") || failure.remedy.contains("invisible character U+"))
                            && failure.remedy.contains("nothing was saved"),
                        "\(failure.remedy)")
                #expect(!failure.remedy.unicodeScalars.contains { $0.properties.generalCategory == .control }, "shown inert: \(failure.remedy)")
            }
        }
        // Nothing was saved: bob alone, unambiguous, and his secrets open (no tamper alarm).
        let rows = try store.accountRows(includeQuarantined: false)
        #expect(rows.map(\.id) == [bob.account.id])
        #expect(AccountMatcher.resolve("bob", in: rows) == .found(bob.account))
        #expect(try store.account(id: bob.account.id)?.credentials.refreshToken?.value.exposedValue == "rt-value")
        #expect(try store.events(since: nil, accountId: nil, limit: 50).filter { $0.kind == .signInFailed && $0.detail.hasPrefix("bad_claim") }.count
                == hostile.count * 2)

        // A display name routes nothing: its controls are shown as U+FFFD, and the account is whole.
        let named = try await signIn(Self.identity("sub-carol", "carol", name: "Carol\u{0}\u{1B}[31m"))
        #expect(named.account.displayName == "Carol\u{FFFD}\u{FFFD}[31m")
        #expect(try store.account(id: named.account.id)?.account.displayName == "Carol\u{FFFD}\u{FFFD}[31m")
    }
}
