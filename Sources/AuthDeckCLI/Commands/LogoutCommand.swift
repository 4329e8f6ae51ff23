import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckProviders
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
        let context = DeckContext(global)
        let store = try context.openStore()
        let stored: StoredAccount
        do {
            stored = try context.resolveAccount(account, in: store)
        } catch StoreError.accountTampered(let id) where local {
            // Edited without the key: nothing of it is sent anywhere; --local deletes it unopened.
            try store.delete(accountId: id)
            try store.append(DeckEvent(at: context.clock.now(), kind: .tampered, accountId: id,
                                       detail: "signed out locally: its record had been edited without the key"))
            return Output.raw("Deleted \(id) (its record had been edited without the key; nothing was sent to any server).\n")
        }
        let a = stored.account
        // A provider gone from the config (or a config that no longer loads) still lets the
        // local credentials be deleted; a configured one whose secret cannot be read cannot
        // revoke, so nothing is deleted unless --local says so.
        let adapter: (any ProviderAdapter)?
        do {
            adapter = try context.wiring(store).signOutAdapter(forProvider: a.providerId, config: try? context.loadConfig())
        } catch let failure as AuthFailure where !local {
            throw CLIError(message: "\(a.id): could not revoke at the server: \(failure.remedy). Nothing was deleted; fix that and retry, or use --local to delete the local credentials only",
                           status: failure.errorClass.exitCode)
        } catch {
            adapter = nil
        }
        let registration = (adapter as? ClientRegistrationHolder).flatMap { try? $0.registrationSummary() }
        if clearRegistration && adapter?.keepsRegistration != true && registration == nil {
            throw CLIError.usage("--clear-registration is for OAM accounts and OIDC providers registered dynamically")
        }
        let outcome: SignOut.Outcome
        do {
            outcome = try await SignOut(store: store, clock: context.clock).run(stored, adapter: adapter, local: local,
                                                                                 clearRegistration: clearRegistration)
        } catch let failure as AuthFailure {
            throw CLIError(message: "\(a.id): could not revoke at the server: \(failure.description). Nothing was deleted; retry, or use --local to delete the local credentials only",
                           status: failure.errorClass.exitCode)
        }
        // A dynamic client registration goes with the provider's last account only: the others
        // sign in and renew through it.
        var unregistered = ""
        if clearRegistration, registration != nil, let holder = adapter as? ClientRegistrationHolder {
            let others = try store.accountRows(includeQuarantined: true).filter { $0.providerId == a.providerId }
            if others.isEmpty {
                do {
                    if let gone = try await holder.unregister() { unregistered = " The client registration is deleted at the issuer and here (\(gone))." }
                } catch let failure as AuthFailure {
                    throw CLIError(message: "\(a.id) is signed out, but its provider's client registration could not be deleted: \(failure.description); "
                                       + "it is kept: `authdeck providers unregister \(a.providerId)` tries again", status: failure.errorClass.exitCode)
                }
            } else {
                unregistered = " The client registration is kept: \(others.count) other account\(others.count == 1 ? "" : "s") of \(a.providerId) use\(others.count == 1 ? "s" : "") it."
            }
        }
        // A signed-out default no longer stands for its provider (`authdeck use`).
        if try store.defaultAccount(provider: a.providerId) == a.id {
            try store.setDefaultAccount(nil, provider: a.providerId)
            unregistered += " It was \(a.providerId)'s default account; \(a.providerId) has none now."
        }
        if json {
            return try Output.json(LogoutJSON(id: a.id, provider: a.providerId, username: a.username, revoked_at_server: outcome.revokedAtServer))
        }
        let kept = adapter?.keepsRegistration != true ? "; its credentials are deleted.\(unregistered)"
            : outcome.keptRegistration ? "; the username and preferences are kept (--clear-registration deletes them)."
            : "; nothing of it is kept."
        let server = outcome.revokedAtServer ? "; revoked at the server" : outcome.revocationUnavailable.map { "; not revoked at the server (\($0))" } ?? ""
        Output.raw("Signed out \(TerminalText.inert(a.username)) (\(a.id))\(server)\(kept)\n")
    }
}
