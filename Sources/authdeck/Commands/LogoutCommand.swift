import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckProviders

/// `authdeck logout ACCOUNT`: signs the account out and deletes its credentials.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign ACCOUNT out and delete its credentials from the store.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Account id, username, provider/username or a unique prefix.", completion: Completions.accounts) var account: String
    @Flag(name: .long, help: "Print JSON.") var json = false
    @Flag(name: .long, help: "Delete the local credentials without asking the server to revoke them.") var local = false
    @Flag(name: .long, help: "OAM: also delete the remembered username and preferences.") var clearRegistration = false

    struct LogoutJSON: Encodable {
        var id: String
        var provider: String
        var username: String
        var revoked_at_server: Bool
    }

    func run() async throws {
        let context = DeckContext(global)
        let store = try context.openStore()
        let stored = try context.resolveAccount(account, in: store)
        let a = stored.account
        let config = try? context.loadConfig()
        let oamAdapter = config?.provider(a.providerId)?.kind == .oam ? try? context.adapter(for: a.providerId, config: config!, store: store) : nil
        if clearRegistration && oamAdapter == nil { throw CLIError.usage("--clear-registration is for OAM accounts") }
        let revoked = local ? false : try await revoke(stored, context: context, store: store)
        if let adapter = oamAdapter {
            let kept = try OAMLoginService(adapter: adapter, store: store, clock: context.clock).logout(stored, clearRegistration: clearRegistration)
            if json { return try Output.json(LogoutJSON(id: a.id, provider: a.providerId, username: a.username, revoked_at_server: revoked)) }
            Output.raw("Signed out \(TerminalText.inert(a.username)) (\(a.id))\(revoked ? "; revoked at the server" : "")"
                       + (kept == nil ? "; nothing of it is kept.\n" : "; the username and preferences are kept (--clear-registration deletes them).\n"))
            return
        }
        try store.delete(accountId: a.id)
        try store.append(DeckEvent(at: context.clock.now(), kind: .logout, accountId: a.id, providerId: a.providerId,
                                   detail: revoked ? "signed out; revoked at the server; credentials deleted"
                                                   : "signed out; credentials deleted locally"))
        if json {
            return try Output.json(LogoutJSON(id: a.id, provider: a.providerId, username: a.username, revoked_at_server: revoked))
        }
        Output.raw("Signed out \(TerminalText.inert(a.username)) (\(a.id))\(revoked ? "; revoked at the server" : ""); its credentials are deleted.\n")
    }

    /// Asks the server to revoke first, when the provider can: a failure stops the sign-out
    /// (the refresh token is still needed to retry), unless `--local` is given.
    func revoke(_ stored: StoredAccount, context: DeckContext, store: DeckStore) async throws -> Bool {
        guard let config = try? context.loadConfig(), let profile = config.provider(stored.account.providerId),
              ProviderCapabilities.of(profile).serverRevocation,
              let adapter = try? context.adapter(for: profile.id, config: config, store: store) else { return false }
        do {
            try await adapter.revoke(stored)
            return true
        } catch let failure as AuthFailure {
            throw CLIError(message: "\(stored.account.id): could not revoke at the server: \(failure.description). Nothing was deleted; retry, or use --local to delete the local credentials only",
                           status: failure.errorClass.exitCode)
        }
    }
}
