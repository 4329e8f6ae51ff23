import Testing
import ArgumentParser
@testable import AuthDeckCLI

/// The plain forms `FastArguments` takes past ArgumentParser mean exactly what ArgumentParser
/// makes of them, and every other form is left to ArgumentParser.
@Suite struct FastArgumentsTests {
    /// The plain forms it takes.
    static let taken: [[String]] = [
        [], ["deck"], ["accounts"], ["accounts", "--json"], ["accounts", "--json", "--config", "/c.toml"],
        ["accounts", "--store", "/s.db", "--json", "--provider", "work"], ["accounts", "--provider", "work"],
        ["deck", "--config", "/c.toml", "--store", "/s.db"], ["deck", "--theme", "dusk"], ["deck", "--theme", "dusk", "--config", "c"],
        ["accounts", "--config", "a b", "--json"], ["deck", "--config", "é.toml"], ["token", "x"], ["token", "work/a@b"],
    ]

    /// Near misses, left to ArgumentParser (help, errors, other spellings and commands).
    static let left: [[String]] = [
        ["accounts", "--json", "--json"], ["accounts", "--config"], ["accounts", "--config", "--json"], ["accounts", "--config=/c"],
        ["accounts", "--help"], ["accounts", "-h"], ["accounts", "help"], ["deck", "--json"], ["accounts", "--theme", "x"],
        ["ls", "--json"], ["--version"], ["--config", "c", "accounts"], ["accounts", "extra"], ["status"], ["token"],
        ["token", "-x"], ["token", "x", "y"], ["token", "x", "--json"], ["token", "--scope", "s", "x"], ["token", "--help"],
        ["deck", "--theme"], ["accounts", "--provider", "-x"], ["help"], ["accounts", "--json", "extra"],
    ]

    @Test(arguments: left)
    func leavesEverythingElseToArgumentParser(_ arguments: [String]) {
        #expect(FastArguments(arguments) == nil)
    }

    @Test(arguments: taken)
    func agreesWithArgumentParser(_ arguments: [String]) throws {
        let fast = try #require(FastArguments(arguments))
        let parsed = try AuthDeckCommand.parseAsRoot(arguments)
        switch fast.command {
        case .token(let account):
            let token = try #require(parsed as? TokenCommand)
            #expect(token.account == account && token.scope.isEmpty && !token.json && token.format == "token" && !token.decode)
            #expect(token.global.store == nil && token.global.config == nil && fast.store == nil && fast.config == nil)
        case .bare:
            let root = try #require(parsed as? AuthDeckCommand)
            #expect(root.global.store == fast.store && root.global.config == fast.config)
        case .deck(let theme):
            let deck = try #require(parsed as? DeckCommand)
            #expect(deck.theme == theme && deck.global.store == fast.store && deck.global.config == fast.config)
        case .accounts(let json, let provider):
            let accounts = try #require(parsed as? AccountsCommand)
            #expect(accounts.json == json && accounts.provider == provider)
            #expect(accounts.global.store == fast.store && accounts.global.config == fast.config)
        }
    }

    /// Every option ArgumentParser knows for these commands is one `FastArguments` knows,
    /// so an option added later cannot be silently dropped by the fast form (or the reverse).
    @Test func knowsEveryOptionOfItsCommands() {
        func options(_ help: String) -> Set<String> {
            Set(help.split(whereSeparator: { !($0.isLetter || $0 == "-") }).map(String.init)
                .filter { $0.hasPrefix("--") && $0 != "--help" })
        }
        #expect(options(DeckCommand.helpMessage(columns: 200)) == FastArguments.options["deck"])
        #expect(options(AccountsCommand.helpMessage(columns: 200)) == FastArguments.options["accounts"])
    }
}
