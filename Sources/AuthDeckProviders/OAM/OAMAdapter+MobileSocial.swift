import Foundation
import AuthDeckCore
import AuthDeckOAuth

/// The Mobile and Social REST server type (`OAMRestSettings`): a password signs in for a user
/// token, which is the account's credential; it has no expiry and is good until the server
/// refuses it (PROVIDERS.md §5), when only remembered credentials sign in again silently.
extension OAMAdapter {
    /// The scope the user token is held under: what `authdeck token` hands out with no scope asked.
    static let userTokenType = "USERTOKEN"

    var restService: OAMRestService? {
        settings.rest.map { OAMRestService(settings: $0, http: context.http, profileId: profile.id) }
    }

    func restSignIn(_ service: OAMRestService, flow: SignInFlow, presenter: any SignInPresenter, options: SignInOptions) async throws -> SignInResult {
        guard flow == .password, let user = options.username, let password = options.password else {
            throw AuthFailure(.misconfigured, code: "unsupported",
                              remedy: "provider \"\(profile.id)\" is a Mobile and Social server (server_type = \"mobile-social\"), which signs in with --password and --username")
        }
        let held = service.settings.registers ? self.held(flow: .password, username: user) : nil
        let (issued, registration) = try await restAuthenticate(service, username: user, password: password, held: held, presenter: presenter)
        let principal = issued.principal.flatMap { $0.isEmpty ? nil : $0 } ?? user
        return SignInResult(subject: "oam:\(principal.lowercased())@\(host)", username: principal, displayName: principal,
                            realm: service.settings.serviceDomain,
                            credentials: Credentials(accessTokens: [userToken(issued.token)], extras: registration?.extras ?? [:]))
    }

    func userToken(_ value: Secret) -> AccessToken {
        AccessToken(id: UUIDString.make(), value: value, scopes: [], tokenType: Self.userTokenType, obtainedAt: context.clock.now(), expiresAt: nil)
    }

    /// A new user token from the remembered password (auto-login or remembered credentials);
    /// without one, the account needs a person.
    func restRenew(_ service: OAMRestService, _ stored: StoredAccount) async throws -> Credentials {
        guard let password = rememberedPassword(stored) else {
            throw AuthFailure(.needsInteraction, code: "user_token_refused",
                              remedy: "the Mobile and Social server no longer accepts its user token and the password is not remembered; sign in again: `authdeck login \(stored.account.providerId)`")
        }
        let held = service.settings.registers ? OAMRegistration(extras: stored.credentials.extras) : nil
        let (issued, registration) = try await restAuthenticate(service, username: stored.account.username, password: password, held: held)
        var renewed = stored.credentials
        renewed.accessTokens = [userToken(issued.token)]
        renewed.refreshToken = nil
        renewed.extras.merge(registration?.extras ?? [:]) { _, new in new }
        return renewed
    }

    /// The user token of `stored`, when it holds one.
    static func heldUserToken(_ stored: StoredAccount) -> AccessToken? {
        stored.credentials.accessTokens.first { $0.tokenType == userTokenType }
    }
}
