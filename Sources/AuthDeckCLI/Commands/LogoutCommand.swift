import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckApp

/// `authdeck logout ACCOUNT`: signs the account out and deletes its credentials.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign ACCOUNT out and delete its credentials from the store.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Account id, username, provider/username or a unique prefix.", completion: Completions.accounts) var account: String
    @Flag(name: .long, help: "Print JSON.") var json = false
    @Flag(name: .long, help: "Delete the local credentials without asking the server to revoke them.") var local = false
    @Flag(name: .long, help: "OAM: also delete the remembered username and preferences; OIDC: with the provider's last account, also delete its dynamic client registration at the issuer.")
    var clearRegistration = false

    struct LogoutJSON: Encodable {
        var id: String
        var provider: String
        var username: String
        var revoked_at_server: Bool
    }

    func run() async throws {
        try await run(in: DeckContext(global))
    }

    /// The command with its ports given (`DeckContext`): what `run` does, and what tests call.
    func run(in context: DeckContext) async throws {
        let store = try context.openStore()
        let stored: StoredAccount
        let signOut = SignOut(store: store, clock: context.clock)
        do {
            stored = try context.resolveAccount(account, in: store)
        } catch StoreError.accountTampered(let id) where local {
            // Edited without the key: nothing of it is sent anywhere; --local deletes it unopened.
            try signOut.deleteUnopened(accountId: id)
            return context.output.raw("Deleted \(id) (its record had been edited without the key; nothing was sent to any server).\n")
        }
        let a = stored.account
        let outcome = try await signOut.run(stored, wiring: context.wiring(store), config: try? context.loadConfig(), local: local,
                                            clearRegistration: clearRegistration)
        if json {
            return try context.output.json(LogoutJSON(id: a.id, provider: a.providerId, username: a.username, revoked_at_server: outcome.revokedAtServer))
        }
        var after = ""
        switch outcome.clientRegistration {
        case .deleted(let gone): after = " The client registration is deleted at the issuer and here (\(gone))."
        case .keptFor(let others):
            after = " The client registration is kept: \(others.count) other account\(others.count == 1 ? "" : "s") of \(a.providerId) use\(others.count == 1 ? "s" : "") it."
        case .nothingHeld, nil: break
        }
        if outcome.wasDefault { after += " It was \(a.providerId)'s default account; \(a.providerId) has none now." }
        let kept = !outcome.providerKeepsRegistration ? "; its credentials are deleted.\(after)"
            : outcome.keptRegistration ? "; the username and preferences are kept (--clear-registration deletes them)."
            : "; nothing of it is kept."
        let server = outcome.revokedAtServer ? "; revoked at the server" : outcome.revocationUnavailable.map { "; not revoked at the server (\($0))" } ?? ""
        context.output.raw("Signed out \(TerminalText.inert(a.username)) (\(a.id))\(server)\(kept)\n")
    }
}
