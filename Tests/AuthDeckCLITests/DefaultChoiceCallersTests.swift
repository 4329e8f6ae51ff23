import Testing
import Foundation
import ArgumentParser
import AuthDeckCore
import AuthDeckStore
import AuthDeckConfig
import AuthDeckApp
import AuthDeckUI
import AuthDeckTestSupport
@testable import AuthDeckCLI
@testable import AuthDeckDeck

/// "Make default" from both its callers on one real store: `authdeck use` in-process and the
/// deck's `*` (`DeckWork.makeDefault`). Both go through `DefaultChoice`, so they say the same
/// words, refuse the same accounts and find "already" in the store, not in what they last read.
struct DefaultChoiceCallersTests {
    let seam = SeamHome()

    func deck(_ store: DeckStore) throws -> DeckWork {
        let wiring = ProviderWiring(store: store, clock: seam.clock, environment: seam.environment)
        return DeckWork(wiring: wiring, config: try seam.config(DeckFixture.configTOML), onSignInPrompt: nil)
    }

    func use(_ arguments: String...) async throws -> String {
        let output = CapturedOutput()
        try await UseCommand.parse(arguments).run(in: seam.context(output))
        return output.out
    }

    /// The accounts of `use --json`'s answer.
    func defaults(_ json: String) throws -> [String] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]).compactMap { $0["account"] as? String }
    }

    @Test func useAndTheDecksStarSayTheSameAndSeeEachOthersDefault() async throws {
        let store = try seam.seed()
        let work = try deck(store)
        #expect(try await use("jiro@contoso.com")
                == "work/0000a002 (jiro@contoso.com) is now the default of work: `work` stands for it.\n")
        // The deck learns from the store that `use` set it, not from a row it read before.
        work.makeDefault("work/0000a002")
        #expect(work.inbox.drain() == [.defaultSet(id: "work/0000a002", said: "is already the default of work: `work` stands for it.",
                                                   refused: false)])
        work.makeDefault("work/0000a003")
        #expect(work.inbox.drain() == [.defaultSet(id: "work/0000a003", said: "is now the default of work: `work` stands for it.",
                                                   refused: false)])
        #expect(try await use("work/0000a003")
                == "work/0000a003 (hanako@contoso.com) is already the default of work: `work` stands for it.\n")
        #expect(try store.defaultAccount(provider: "work") == "work/0000a003")
    }

    /// An account pruned after the deck listed it: the deck says the use case's reason; `use`
    /// no longer matches it (it lists unpruned accounts), and the default is not moved.
    @Test func aPrunedAccountIsRefusedInTheUseCasesWords() async throws {
        let store = try seam.seed()
        let work = try deck(store)
        _ = try await use("jiro@contoso.com")
        let stale = try #require(try store.accountRows(includeQuarantined: false).first { $0.id == "work/0000a013" })
        _ = try store.quarantine(nil, at: seam.clock.now()) { _ in [PruneCandidate(account: stale, reason: .unused(days: 100, limit: .days(90)))] }
        work.makeDefault("work/0000a013")
        #expect(work.inbox.drain() == [.defaultSet(id: "work/0000a013", said: "the account is pruned (in the quarantine); "
                                                       + "`authdeck prune --undo` brings it back first", refused: true)])
        await #expect(throws: CLIError.self) { _ = try await use("work/0000a013") }
        #expect(try store.defaultAccount(provider: "work") == "work/0000a002")
    }

    /// `use --clear`: a mistyped provider is refused by name with a store or without one, and
    /// with `--json` every form prints the defaults as they are afterwards.
    @Test func clearRefusesAMistypedProviderAndPrintsJSONWhenAsked() async throws {
        let path = try seam.home.writeConfig(DeckFixture.configTOML)
        let unknown = "no provider \"nosuch\" in \(path) (configured: work, prod, sp, fb, gl)"
        let noStore = await #expect(throws: Refusal.self) { _ = try await use("--clear", "nosuch") }
        #expect(noStore?.message == unknown)
        #expect(try defaults(try await use("--clear", "work", "--json")).isEmpty, "no store: no defaults")
        let store = try seam.seed()
        let withStore = await #expect(throws: Refusal.self) { _ = try await use("--clear", "nosuch") }
        #expect(withStore?.message == unknown)
        #expect(try await use("--clear", "work") == "work has no default account.\n")
        try store.setDefaultAccount("fb/0000a004", provider: "fb")
        #expect(try defaults(try await use("--clear", "work", "--json")) == ["fb/0000a004"], "nothing cleared, the defaults still printed")
        _ = try await use("jiro@contoso.com")
        #expect(try await use("--clear", "work") == "work has no default account now.\n")
    }
}
