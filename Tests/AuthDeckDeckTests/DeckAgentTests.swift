import Testing
import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckUI
import AuthDeckTerminal
import AuthDeckTestSupport
import AuthDeckConfig
import AuthDeckApp
@testable import AuthDeckDeck
import AuthDeckLook

/// The open deck is an agent (issue 43, A3): a host's request waits in `DeckAgentConfirmer`
/// while the real loop shows its window; the key pressed there is the answer the request gets,
/// and one nobody answers is denied at its deadline. A real store, the real runtime, a
/// scripted terminal.
struct DeckAgentTests {
    /// Opens the fixture's store and config in a temporary home.
    static func fixture(_ dir: TempDirectory) throws -> (DeckStore, DeckConfig, [String: String]) {
        let env = ["HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"), "PATH": "/usr/bin:/bin",
                   "AUTHDECK_AGENT_SOCKET": dir.file("run/agent.sock")]
        let store = try DeckStore.open(StoreLocation.resolve(storeFlag: nil, environment: env), clock: SystemClock())
        for stored in DeckFixture(now: SystemClock().now()).accounts { try store.insert(stored) }
        try FileManager.default.createDirectory(atPath: dir.file("config/authdeck"), withIntermediateDirectories: true)
        try DeckFixture.configTOML.write(toFile: dir.file("config/authdeck/config.toml"), atomically: true, encoding: .utf8)
        return (store, try ConfigLoader.load(path: dir.file("config/authdeck/config.toml"), required: true), env)
    }

    /// The real runtime on the fixture (no socket served: the confirmer is asked directly).
    @MainActor
    static func runtime(_ dir: TempDirectory) throws -> (DeckStore, DeckConfig, DeckRuntime) {
        let (store, config, env) = try fixture(dir)
        let runtime = DeckRuntime(wiring: ProviderWiring(store: store, clock: SystemClock(), environment: env), config: config, environment: env,
                                  themes: [Theme.standard], ascii: false, executor: ThreadExecutor(), notify: { _ in })
        return (store, config, runtime)
    }

    static func ask(host: String) -> AgentAsk {
        AgentAsk(host: host, hostClaimed: false, session: "s1", accountId: "work/0000a001", accountName: "work/taro@contoso.com",
                 audience: "User.Read", client: "token")
    }

    /// An ask from a thread of its own, as the agent server's connections ask.
    static func asking(_ confirmer: DeckAgentConfirmer, _ host: String, timeout: Double) -> Task<AgentDecision, Never> {
        Task.detached(executorPreference: ThreadExecutor()) { await confirmer.confirm(Self.ask(host: host), timeout: timeout) }
    }

    @MainActor
    @Test func theKeyPressedInTheWindowIsTheAnswerAndAnUnansweredAskIsDenied() async throws {
        let dir = TempDirectory("authdeck-deck-agent")
        let (store, config, runtime) = try Self.runtime(dir)
        let confirmer = runtime.work.confirmer
        // Two hosts ask at once: the second waits behind the first's window, and nobody
        // answers it within its 3 seconds.
        let first = Self.asking(confirmer, "buildhost", timeout: 60)
        let deadline = Date() + 10
        while confirmer.waitingCount < 1, Date() < deadline { usleep(5_000) }
        let asks = [first, Self.asking(confirmer, "jumpbox", timeout: 3)]
        let screen = DeckLoopTests.ScriptedScreen([
            .until("host     buildhost"),
            .input(.key(.char("o"))),
            .until("host     jumpbox"),
            .until("Denied work/taro@contoso.com to jumpbox: no answer before its request timed out."),
        ])
        let firstRead = FirstRead(store) { try DeckWork.load(store: store, config: config, now: SystemClock().now(), selected: nil) }
        _ = runtime.run(screen: screen, firstRead: firstRead)
        #expect(screen.failure == nil, "\(screen.failure ?? "")")
        let allowed = try #require(screen.frames.first { $0.text.contains("Allowed work/taro@contoso.com to buildhost, this once.") })
        #expect(allowed.text.contains("host     jumpbox"), "the next ask shown as the first is answered")
        #expect(await asks[0].value == .once)
        #expect(await asks[1].value == .deny)
        #expect(confirmer.waitingCount == 0)
    }

    /// The deck closing answers every host still waiting (denied), and later asks at once:
    /// no remote command waits on a deck that is gone.
    @MainActor
    @Test func closingTheDeckDeniesEveryWaitingAsk() async throws {
        let dir = TempDirectory("authdeck-deck-agent")
        let (store, config, runtime) = try Self.runtime(dir)
        let confirmer = runtime.work.confirmer
        let waiting = Self.asking(confirmer, "buildhost", timeout: 600)
        let screen = DeckLoopTests.ScriptedScreen([.until("host     buildhost"), .input(.key(.char("q")))])
        let firstRead = FirstRead(store) { try DeckWork.load(store: store, config: config, now: SystemClock().now(), selected: nil) }
        _ = runtime.run(screen: screen, firstRead: firstRead)
        #expect(screen.failure == nil, "\(screen.failure ?? "")")
        #expect(await waiting.value == .deny)
        #expect(await confirmer.confirm(Self.ask(host: "late"), timeout: 600) == .deny, "a deck gone denies at once")
    }

    /// Issue 43, item 4: a host's sign-in is the deck's own. The request asks the loop to sign
    /// the account in and waits; the sign-in ending answers it (true or false); a request whose
    /// timeout passes gets false and tells the loop to stop that sign-in; a closing deck says no.
    @Test func aHostsSignInWaitsForTheDecksOwnAndEndsWithItsTimeout() async throws {
        let dir = TempDirectory("authdeck-deck-agent")
        let (store, _, _) = try Self.fixture(dir)
        let stored = try #require(try store.account(id: "work/0000a005"))
        let inbox = Inbox()
        let signIns = DeckAgentSignIns(inbox: inbox)
        let signed = Task.detached { await signIns.signIn(stored, timeout: 30) }
        let deadline = Date() + 10
        while !inbox.peek().contains(.agentSignIn(id: stored.account.id)), Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(inbox.drain() == [.agentSignIn(id: stored.account.id)], "the loop is asked to sign it in")
        signIns.finished(stored.account.id, ok: true)
        #expect(await signed.value)

        let started = Date()
        // A request the timeout did not end would wait for a sign-in nobody finishes, forever;
        // the bound is loose because under the whole suite this test process's threads were so
        // busy that the answer came 40 s late (the deck's own process has no such load).
        let timedOut = await withTaskExecutorPreference(ThreadExecutor(label: "authdeck.deck-agent-test")) {
            await signIns.signIn(stored, timeout: 1)
        }
        #expect(timedOut == false)
        #expect(Date().timeIntervalSince(started) < 300)
        #expect(inbox.drain() == [.agentSignIn(id: stored.account.id), .agentSignInTimedOut(id: stored.account.id)])

        let waiting = Task.detached { await signIns.signIn(stored, timeout: 600) }
        while inbox.peek().isEmpty, Date() < deadline + 10 { try await Task.sleep(for: .milliseconds(5)) }
        signIns.close()
        #expect(await waiting.value == false)
        #expect(await signIns.signIn(stored, timeout: 600) == false, "a deck gone says no at once")
    }
}
