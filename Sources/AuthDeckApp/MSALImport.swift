import AuthDeckCore
import AuthDeckStore
import AuthDeckOAuth
import AuthDeckProviders

/// Importing the accounts of an MSAL token cache (Azure CLI's) as accounts of a provider that
/// renews with them: one account per home account, its refresh token sealed.
///
/// Refresh tokens are bound to the client that obtained them: only those issued to the
/// provider's `client_id` are imported; the others are reported as skipped, with why.
public struct MSALImport {
    public struct Result: Sendable {
        /// "username (id)" of each account imported.
        public var imported: [String] = []
        /// Who was skipped and why.
        public var skipped: [String] = []
    }

    let store: DeckStore
    let clock: any WallClock

    public init(store: DeckStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// Checks `profile` can take MSAL accounts; its client id.
    public static func clientId(of profile: ProviderProfile?, providerId: String, configPath: String) throws -> String {
        let capabilities = profile.map(ProviderCapabilities.of)
        guard let profile, let capabilities, capabilities.flows.contains(.import), capabilities.producesTokens,
              let clientId = profile.clientId else {
            throw Refusal.usage("\"\(TerminalText.inert(providerId))\" is not an azuread provider with a client_id in \(configPath)")
        }
        return clientId
    }

    /// Reads the cache at `path` and saves its accounts as `profile`'s, for its `clientId`
    /// (`clientId(of:)`); the events name the cache `shownAs`.
    public func run(path: String, shownAs: String, profile: ProviderProfile, clientId: String) throws -> Result {
        let cache: MSALCache
        do { cache = try MSALCacheFile(path: path).read() } catch let e as MSALCacheFile.FileError {
            throw Refusal.failure(e.description)
        }
        let now = clock.now()
        var result = Result()
        // Read (and decrypt) the store once, not once per cache entry: caches can hold thousands.
        var known = Dictionary(try store.accounts(providerId: profile.id, subject: nil)
            .map { ($0.account.subject, $0) }, uniquingKeysWith: { first, _ in first })
        // One deck account per home account: its refresh token, and the realm the provider pins (or the first).
        for (_, realms) in Dictionary(grouping: cache.entries(), by: { $0.homeAccountId + "|" + $0.environment }).sorted(by: { $0.key < $1.key }) {
            let entry = realms.first { $0.realm.lowercased() == profile.expectedRealm?.lowercased() } ?? realms[0]
            guard let rt = entry.refreshTokenKeys.compactMap(cache.refreshToken).first(where: { $0.clientId == clientId }) else {
                result.skipped.append("\(entry.username.isEmpty ? entry.homeAccountId : entry.username) (no refresh token for client \(clientId))")
                continue
            }
            // As a sign-in's claims (`SignInResult.checkedIdentity`): a control character would be
            // cut at the NUL when read back and the account refused as tampered.
            let fields = [("home account id", entry.homeAccountId), ("username", entry.username), ("realm", entry.realm)]
            if let bad = fields.first(where: { SignInResult.controlProblem($0.1) != nil }), let problem = SignInResult.controlProblem(bad.1) {
                result.skipped.append("\(TerminalText.inert(entry.username)) (its \(bad.0) holds \(problem))")
                continue
            }
            let existing = known[entry.homeAccountId]
            var account = existing?.account ?? Account(id: Account.makeID(provider: profile.id), providerId: profile.id, subject: entry.homeAccountId,
                                                       username: entry.username, createdAt: now)
            account.username = entry.username
            account.displayName = entry.claims["name"] ?? account.displayName
            account.realm = entry.realm
            account.lastSignInAt = now
            account.lastError = nil
            account.quarantinedAt = nil
            let credentials = Credentials(refreshToken: RefreshToken(id: UUIDString.make(), value: Secret(rt.secret),
                                                                     generation: (existing?.credentials.refreshToken?.generation ?? 0) + 1, obtainedAt: now),
                                          idTokenClaims: entry.claims)
            try store.saveSignIn(account, credentials: credentials, event: DeckEvent(
                at: now, kind: .imported, accountId: account.id, providerId: profile.id, detail: "from the MSAL cache \(shownAs)"))
            known[entry.homeAccountId] = StoredAccount(account: account, credentials: credentials)
            result.imported.append("\(account.username) (\(account.id))")
        }
        return result
    }
}
