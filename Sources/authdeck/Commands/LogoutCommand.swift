import ArgumentParser
import AuthDeckCore

/// `authdeck logout ACCOUNT`: signs the account out and deletes its credentials.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign ACCOUNT out and delete its credentials from the store.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Account id, username, provider/username or a unique prefix.") var account: String
    @Flag(name: .long, help: "Print JSON.") var json = false

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
        try store.delete(accountId: a.id)
        try store.append(DeckEvent(at: context.clock.now(), kind: .logout, accountId: a.id, providerId: a.providerId,
                                   detail: "signed out; credentials deleted locally"))
        if json {
            return try Output.json(LogoutJSON(id: a.id, provider: a.providerId, username: a.username, revoked_at_server: false))
        }
        Output.raw("Signed out \(TerminalText.inert(a.username)) (\(a.id)); its credentials are deleted.\n")
    }
}
