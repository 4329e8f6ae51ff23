import ArgumentParser
import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckProviders
import AuthDeckOAuth

/// `authdeck import msal [FILE] --provider P`: an MSAL cache's accounts become Azure AD
/// accounts of provider P, their refresh tokens sealed, so `authdeck refresh` renews them.
///
/// Refresh tokens are bound to the client that obtained them: only those issued to P's
/// `client_id` are imported; the others are listed as skipped.
struct ImportMSALCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "msal", abstract: "Import the accounts of an MSAL token cache as Azure AD accounts.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The cache file (default ~/.azure/msal_token_cache.json).") var file: String?
    @Option(name: .long, help: ArgumentHelp("The azuread provider they belong to.", valueName: "id"), completion: Completions.providers) var provider: String

    func run() async throws {
        let context = DeckContext(global)
        let config = try context.loadConfig()
        guard let profile = config.provider(provider), profile.kind == .azuread, let clientId = profile.clientId else {
            throw CLIError.usage("\"\(TerminalText.inert(provider))\" is not an azuread provider with a client_id in \(config.path)")
        }
        let cache: MSALCache
        do { cache = try MSALCacheFile(path: file ?? MSALCommand.defaultPath(context.environment)).read() } catch let e as MSALCacheFile.FileError {
            throw CLIError.failure(e.description)
        }
        let store = try context.openStore()
        let now = context.clock.now()
        var imported: [String] = [], skipped: [String] = []
        // Read (and decrypt) the store once, not once per cache entry: caches can hold thousands.
        var known = Dictionary(try store.accounts(providerId: profile.id, subject: nil)
            .map { ($0.account.subject, $0) }, uniquingKeysWith: { first, _ in first })
        // One deck account per home account: its refresh token, and the realm the provider pins (or the first).
        for (_, realms) in Dictionary(grouping: cache.entries(), by: { $0.homeAccountId + "|" + $0.environment }).sorted(by: { $0.key < $1.key }) {
            let entry = realms.first { $0.realm.lowercased() == profile.expectedRealm?.lowercased() } ?? realms[0]
            guard let rt = entry.refreshTokenKeys.compactMap(cache.refreshToken).first(where: { $0.clientId == clientId }) else {
                skipped.append("\(entry.username.isEmpty ? entry.homeAccountId : entry.username) (no refresh token for client \(clientId))")
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
                at: now, kind: .imported, accountId: account.id, providerId: profile.id, detail: "from the MSAL cache \(file ?? "~/.azure/msal_token_cache.json")"))
            known[entry.homeAccountId] = StoredAccount(account: account, credentials: credentials)
            imported.append("\(account.username) (\(account.id))")
        }
        if !skipped.isEmpty { Output.note("Skipped: " + skipped.map(TerminalText.inert).joined(separator: "; ")) }
        Output.raw(imported.isEmpty ? "Nothing imported.\n"
                   : "Imported \(imported.count): \(Self.list(imported, separator: ", ")). Run `authdeck refresh --all` to renew their tokens.\n")
        if imported.isEmpty && !skipped.isEmpty { throw ExitCode(ExitStatus.failure) }
    }

    /// The first ten items and how many more: a cache of thousands of accounts made one line
    /// of hundreds of kilobytes. (What was skipped is always listed whole: each says why.)
    static func list(_ items: [String], separator: String) -> String {
        let shown = items.prefix(10).map(TerminalText.inert).joined(separator: separator)
        return items.count > 10 ? shown + "\(separator)and \(items.count - 10) more (`authdeck accounts` lists them)" : shown
    }
}
