import Synchronization
import AuthDeckCore

/// A SharePoint site's adapter whose silent renewal answers as a test says (new cookies, or a
/// failure), and counts its renewals: `CookieAccess` driven below the binary without Azure AD.
final class CookieSiteAdapter: ProviderAdapter {
    let profile: ProviderProfile
    var capabilities: ProviderCapabilities { .of(profile) }
    let answer: @Sendable () throws -> Credentials
    private let count = Mutex(0)

    /// `profile` must be a linked SharePoint site (it renews silently).
    init(_ profile: ProviderProfile, answer: @escaping @Sendable () throws -> Credentials) {
        self.profile = profile
        self.answer = answer
    }

    /// How many renewals were asked for.
    var renewals: Int { count.withLock { $0 } }

    func signIn(flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
        throw AuthFailure(.misconfigured, code: "unused", remedy: "not part of the test")
    }

    func renew(_ stored: StoredAccount, scopes: [String], hearing: RotationHearing?) async throws -> Credentials {
        count.withLock { $0 += 1 }
        return try answer()
    }

    func revoke(_ stored: StoredAccount) async throws {
        throw RevocationUnavailable(reason: "not part of the test")
    }
}
