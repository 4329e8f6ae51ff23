import Testing
import Foundation
import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckConfig
import AuthDeckApp
import AuthDeckTestSupport
@testable import AuthDeckCLI

/// Commands run in-process through their ports (`DeckContext`: environment, clock, adapters,
/// output), on a real store and config in a temporary home — `logout`, `prune` and `use`
/// as the binary runs them, without the binary. With `DeckWorkRulesTests` this shows the CLI
/// and the deck following the same rules (issue 42).
struct CommandSeamTests {
    typealias Captured = CapturedOutput

    let seam = SeamHome()

    func seed() throws -> DeckStore { try seam.seed() }

    func context(_ output: Captured, adapter: RegisteredClientAdapter? = nil) -> DeckContext {
        seam.context(output, adapter: adapter)
    }

    /// `logout --clear-registration` of a dynamic client's accounts: the default goes with its
    /// account and is said; the registration is kept for the other account, then deleted with
    /// the last — the same outcome `DeckWorkRulesTests` sees from the deck.
    @Test func logoutClearsTheDefaultAndTheLastAccountsRegistration() async throws {
        let store = try seed()
        try store.setDefaultAccount("gl/0000a006", provider: "gl")
        let adapter = RegisteredClientAdapter(ProviderProfile(id: "gl", kind: .oidc))
        let first = Captured()
        try await LogoutCommand.parse(["gl/0000a006", "--clear-registration"]).run(in: context(first, adapter: adapter))
        #expect(first.out == "Signed out pending@example.jp (gl/0000a006); revoked at the server; its credentials are deleted. "
                + "The client registration is kept: 1 other account of gl uses it. It was gl's default account; gl has none now.\n")
        #expect(try store.defaultAccount(provider: "gl") == nil)
        let last = Captured()
        try await LogoutCommand.parse(["gl/0000a007", "--clear-registration"]).run(in: context(last, adapter: adapter))
        #expect(last.out.hasSuffix("The client registration is deleted at the issuer and here (\(RegisteredClientAdapter.summary)).\n"), "\(last.out)")
        #expect(adapter.unregistered == 1 && adapter.revoked == 2)
    }

    /// A failed revocation: the CLI's error is the use case's sentence, exit 4, nothing deleted.
    @Test func logoutSaysTheUseCasesRefusal() async throws {
        let store = try seed()
        let before = try store.account(id: "gl/0000a006")
        let adapter = RegisteredClientAdapter(ProviderProfile(id: "gl", kind: .oidc), revocationFails: true)
        let stopped = await #expect(throws: SignOut.Stopped.self) {
            try await LogoutCommand.parse(["gl/0000a006"]).run(in: context(Captured(), adapter: adapter))
        }
        #expect(stopped?.sentence.hasPrefix("gl/0000a006: could not revoke at the server: the issuer is unavailable") == true)
        #expect(stopped?.exitStatus == ExitStatus.transient)
        #expect(try store.account(id: "gl/0000a006") == before)
        // Asking to clear a registration a provider does not hold is the request's mistake (2).
        let refusal = await #expect(throws: Refusal.self) {
            try await LogoutCommand.parse(["fb/0000a004", "--clear-registration", "--local"]).run(in: context(Captured()))
        }
        #expect(refusal?.exitStatus == ExitStatus.usage)
    }

    /// `prune --yes` clears a pruned default and says so on stderr; `use --json` then lists
    /// only the defaults left.
    @Test func pruneClearsAPrunedDefaultAndUseListsWhatIsLeft() async throws {
        let store = try seed()
        try store.setDefaultAccount("work/0000a013", provider: "work")
        try store.setDefaultAccount("fb/0000a004", provider: "fb")
        let pruned = Captured()
        try await PruneCommand.parse(["--yes", "--reason", "unused"]).run(in: context(pruned))
        #expect(pruned.err.contains("work/0000a013 was work's default account; work has none now"), "\(pruned.err)")
        #expect(pruned.out.contains("Pruned 1. Undo with `authdeck prune --undo`."), "\(pruned.out)")
        let used = Captured()
        try await UseCommand.parse(["--json"]).run(in: context(used))
        let json = try #require(JSONSerialization.jsonObject(with: Data(used.out.utf8)) as? [[String: Any]])
        #expect(json.map { $0["provider"] as? String } == ["fb"] && json.first?["account"] as? String == "fb/0000a004", "\(used.out)")
        // `use ACCOUNT` sets one, in the store the context names.
        try await UseCommand.parse(["jiro@contoso.com"]).run(in: context(Captured()))
        #expect(try store.defaultAccount(provider: "work") == "work/0000a002")
    }
}
