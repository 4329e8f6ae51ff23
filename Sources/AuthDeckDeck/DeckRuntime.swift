import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckStore
import AuthDeckConfig
import AuthDeckApp
import AuthDeckUI
import AuthDeckTerminal
import AuthDeckLook
import AuthDeckPlatform

/// Runs the interactive deck: the loop that turns input and effect results into actions,
/// `reduce`s them, performs the effects (concurrently, off the loop, through `DeckWork`), and
/// draws.
///
/// On the main actor: curses wants one thread, and the loop blocks it between keys, so it runs
/// on the main thread rather than holding one of the few threads background work shares.
/// `state`, `tasks` and the reload flags are the main actor's; background tasks capture `work`
/// (a Sendable value), never this — the compiler checks both.
@MainActor
public final class DeckRuntime {
    let work: DeckWork
    let themes: [Theme]
    let glyphs: DeckRenderer.Glyphs
    /// The process environment: `AUTHDECK_TRACE_FRAMES`, `AUTHDECK_TEST_FRAMES` and the exec
    /// time the first frame is measured from.
    let environment: [String: String]
    /// Says a line on standard error (the caller's wording rules apply: `Output.stderr`).
    let notify: @Sendable (String) -> Void
    /// Where the work handed off runs: Swift's shared threads (nil), or threads of a test's
    /// own — a test process keeps the shared ones busy with tests of its own that block them.
    let executor: (any TaskExecutor)?
    public var state: DeckState
    private var tasks: [String: Task<Void, Never>] = [:]
    /// A reload is running off the loop; another is queued behind it when `reloadAgain`.
    private var reloading = false, reloadAgain = false
    /// The store files' size and modification time at the last reload started.
    private var storeStamp: [String] = []
    /// Whether this deck serves the agent socket while open (the person's own deck; not the
    /// demo's, whose accounts are no one's), and the serving, once started.
    let servesAgent: Bool
    private var agent: DeckAgent?

    var store: DeckStore { work.store }
    var inbox: Inbox { work.inbox }

    /// - Parameters:
    ///   - wiring: the store, clock and adapters the deck's use cases run with.
    ///   - notify: writes a line to standard error (after the terminal is given back).
    ///   - onSignInPrompt: told of every sign-in prompt with the account it is for (the demo's approver).
    ///   - servesAgent: serve the agent socket (`AgentSocket.localPath`) while open.
    public init(wiring: ProviderWiring, config: DeckConfig, environment: [String: String], themes: [Theme], ascii: Bool,
                executor: (any TaskExecutor)? = nil, servesAgent: Bool = false, notify: @escaping @Sendable (String) -> Void,
                onSignInPrompt: (@Sendable (_ accountId: String, SignInPrompt) -> Void)? = nil) {
        self.servesAgent = servesAgent
        work = DeckWork(wiring: wiring, config: config, onSignInPrompt: onSignInPrompt)
        self.environment = environment
        self.executor = executor
        self.notify = notify
        self.themes = themes
        self.glyphs = ascii ? .plain : .unicode
        let store = wiring.store
        state = DeckState(now: wiring.clock.now(), storePath: store.location.databasePath, keySource: store.keySource,
                          themeName: themes.first?.name ?? "default", themeNames: themes.map(\.name))
        state.keymap = Keymap.Resolved(overrides: config.keys.compactMapValues(Keymap.key(named:)))
        state.configPath = config.path
    }

    /// - Parameter firstRead: the first read of the store, already under way (see `FirstRead`).
    /// - Returns: the signal (SIGINT, SIGTERM, SIGHUP) that ended the deck, if one did: the
    ///   caller ends with 128 + it once it has cleaned up, as a process killed by it would.
    public func run(screen: any TerminalScreen, firstRead: FirstRead) -> Int32? {
        screen.start()
        defer { screen.stop() }
        dispatch(.resize(width: screen.width, height: screen.height))
        // The first read is done before the first frame, so keys pressed at once (p, R) act
        // on the real rows rather than on an empty deck; later reads run off the loop.
        storeStamp = firstRead.stamp
        dispatch(firstRead.wait())
        if servesAgent {
            agent = DeckAgent.serve(work, environment: environment, executor: executor)
            if let why = agent?.notServing { dispatch(.agentNotServing(why)) }
            if agent?.server != nil { perform(.readHandOuts) }
        }
        var lastTick = work.clock.now(), lastCheck = Date(), lastAgentTry = Date()
        var dataVersion = try? store.dataVersion()
        let trace = environment["AUTHDECK_TRACE_FRAMES"].flatMap { FileHandle(forWritingAtPath: $0) ?? Self.create($0) }
        let frames = FrameLog(environment: environment)
        var firstFrame = true
        var keyAt: DispatchTime?
        var endedBy: Int32?
        while !state.quitting {
            for action in inbox.drain() { dispatch(action) }
            if inbox.takeReloadEnded() {
                reloading = false
                if reloadAgain { reloadAgain = false; perform(.reload) }
            }
            let started = DispatchTime.now()
            let theme = themes.first { $0.name == state.themeName } ?? .standard
            let shown = screen.draw(DeckRenderer.render(state, glyphs: glyphs), theme: theme)
            frames?.record(shown)
            if let trace {
                // `first-frame`: from the exec of the process to the first complete frame on
                // the terminal; `frame`: render + draw; `key`: from reading a key to its frame.
                let end = DispatchTime.now()
                var lines = String(format: "frame %.3f ms\n", Double(end.uptimeNanoseconds - started.uptimeNanoseconds) / 1e6)
                if firstFrame, let since = ProcessClock.sinceExec(environment) { lines = String(format: "first-frame %.3f ms\n", since * 1000) + lines }
                if let k = keyAt { lines += String(format: "key %.3f ms\n", Double(end.uptimeNanoseconds - k.uptimeNanoseconds) / 1e6) }
                trace.write(Data(lines.utf8))
                firstFrame = false
                keyAt = nil
            }
            switch screen.read(milliseconds: 200) {
            case .key(let k)?:
                if trace != nil { keyAt = DispatchTime.now() }
                dispatch(.key(k))
            case .resize(let w, let h)?: dispatch(.resize(width: w, height: h))
            case .click(let x, let y)?: dispatch(.click(x: x, y: y))
            case .hangup?: state.quitting = true  // the terminal is gone: nobody to show anything to
            case .signal(let s)?: (endedBy, state.quitting) = (s, true)
            case nil: break
            }
            let now = work.clock.now()
            if now != lastTick {
                lastTick = now
                dispatch(.tick(now))
            }
            // Other processes change the store too (scripts renewing, logins): the files are
            // looked at every 0.25 s (two stat calls) and, when they changed, SQLite says
            // whether another process committed; this deck's own writes update their rows
            // themselves, and states that change with time alone come with `reloadAt`.
            // An agent the deck stepped aside for may stop while the deck stays open: every 10 s
            // the deck tries the socket again, and serves (saying so) once it is free.
            if servesAgent, agent?.server == nil, Date().timeIntervalSince(lastAgentTry) >= 10 {
                lastAgentTry = Date()
                let again = DeckAgent.serve(work, environment: environment, executor: executor)
                if again.server != nil {
                    agent = again
                    dispatch(.agentServing(AgentSocket.localPath(environment)))
                    perform(.readHandOuts)
                }
            }
            if Date().timeIntervalSince(lastCheck) >= 0.25 {
                lastCheck = Date()
                let files = work.stamp()
                if files != storeStamp {
                    storeStamp = files
                    // The agent's answers are events this process writes: what hosts hold is
                    // read again on any write, this deck's own included.
                    if agent?.server != nil { perform(.readHandOuts) }
                    let version = try? store.dataVersion()
                    if version == nil || version != dataVersion {
                        dataVersion = version
                        perform(.reload)
                    }
                }
            }
        }
        screen.stop()
        // No host waits on a deck that is gone: every ask still open is denied now, every
        // sign-in a host waits for refused, and the socket removed.
        work.confirmer.close()
        work.signIns.close()
        agent?.stop()
        finishWork()
        return endedBy
    }

    static func create(_ path: String) -> FileHandle? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }

    func dispatch(_ action: DeckAction) {
        for effect in DeckReducer.reduce(&state, action) { perform(effect) }
    }

    func perform(_ effect: DeckEffect) {
        let work = self.work
        switch effect {
        case .reload:
            reloadInBackground()
        case .refreshRows(let ids):
            let selected = state.selectedID
            start(nil, "store read") { work.refreshRows(ids, selected: selected) }
        case .readEvents(let id):
            start(nil, "store read") { work.readEvents(id) }
        case let .renew(ids, interactive):
            // Many at once (R): the pacing lets at most 4 renewals talk to providers at a time.
            for id in ids { start(id, "renewal") { await work.renew(id, interactive: interactive) } }
        case .renewAhead(let ids):
            for id in ids { start(id, "renewal") { await work.renewAhead(id) } }
        case .prune(let ids):
            let before = tasks["prune"]  // a prune and its undo run in the order pressed
            start("prune", "prune") {
                await before?.value
                work.prune(ids)
            }
        case .undoPrune:
            let before = tasks["prune"]
            start("prune", "restore") {
                await before?.value
                work.undoPrune()
            }
        case let .logout(id, clear):
            start(id, "sign-out") { await work.logout(id, clearRegistration: clear) }
        case .makeDefault(let id):
            start("default:" + id, "default") { work.makeDefault(id) }
        case .signIn(let provider):
            start("new:" + provider, "sign-in") { await work.add(provider) }
        case .cancelSignIn(let id):
            tasks[id]?.cancel()
            tasks[id] = nil
        case let .answerPassword(id, password):
            work.passwords.answer(id, password)
        case .encodeQR(let uri):
            Task.detached(executorPreference: executor) { work.encodeQR(uri) }
        case .openURL(let url):
            _ = work.wiring.openInBrowser(url, config: work.config)
        case let .answerAgent(ticket, answer):
            work.confirmer.answer(ticket, answer.decision)
        case .readHandOuts:
            start(nil, "store read") { work.readHandOuts() }
        case .quit:
            break
        }
    }

    /// Runs `job` off the loop, counted in `running` until it ends; under `id` (nil: untracked),
    /// a job of the same id still running is cancelled first.
    func start(_ id: String?, _ label: String, _ job: @escaping @Sendable () async -> Void) {
        if let id { tasks[id]?.cancel() }
        let running = work.running
        let ticket = running.begin(label)
        let task = Task.detached(executorPreference: executor) {
            await job()
            running.end(ticket)
        }
        if let id { tasks[id] = task }
    }

    /// Lets the work under way end before the process does: sign-ins waiting for a person
    /// are cancelled (they stop at their next wait), while a renewal or sign-out the provider
    /// may already have answered runs to its end — at most `limit` seconds, each request
    /// having a timeout of its own. Said on standard error when it takes a moment.
    func finishWork(limit: TimeInterval = 30) {
        let running = work.running
        for task in tasks.values { task.cancel() }
        if running.waitUntilIdle(before: Date() + 0.3) { return }
        notify("authdeck: finishing \(running.summary()) before leaving, so nothing the provider issued is lost (at most \(Int(limit)) s; Ctrl-C leaves now)\n")
        if !running.waitUntilIdle(before: Date() + limit) {
            notify("authdeck: left with \(running.summary()) unfinished after \(Int(limit)) s\n")
        }
    }

    /// Reads the store off the loop so a large store never stalls keys or redraws; reloads
    /// asked for meanwhile collapse into one that runs when this one ends.
    func reloadInBackground() {
        guard !reloading else { reloadAgain = true; return }
        reloading = true
        storeStamp = work.stamp()
        let selected = state.selectedID
        // Tracked too: a read opening a connection after the demo removed its store would
        // create an empty database there.
        let work = self.work
        start(nil, "store read") { work.reload(selected: selected) }
    }
}

/// Background results waiting for the loop.
final class Inbox: Sendable {
    private let waiting = Mutex((actions: [DeckAction](), reloadEnded: false))
    func post(_ a: DeckAction) { waiting.withLock { $0.actions.append(a) } }
    func drain() -> [DeckAction] { waiting.withLock { w in defer { w.actions.removeAll() }; return w.actions } }
    /// What waits, left waiting (for tests).
    func peek() -> [DeckAction] { waiting.withLock { $0.actions } }
    func markReloadEnded() { waiting.withLock { $0.reloadEnded = true } }
    func takeReloadEnded() -> Bool { waiting.withLock { w in defer { w.reloadEnded = false }; return w.reloadEnded } }
}

/// Sign-in prompts shown as the deck's modals.
struct DeckPresenter: SignInPresenter {
    let id: String
    let inbox: Inbox
    let passwords: PasswordAnswers
    let observer: (@Sendable (String, SignInPrompt) -> Void)?
    func present(_ prompt: SignInPrompt) async {
        observer?(id, prompt)
        inbox.post(.signInPrompt(id: id, prompt))
    }

    /// Shows the deck's password window and waits for what is typed there.
    func password(for account: String, note: String?) async -> Secret? {
        await passwords.wait(for: id) { inbox.post(.passwordPrompt(id: id, account: TerminalText.inert(account), note: note)) }
    }
}
