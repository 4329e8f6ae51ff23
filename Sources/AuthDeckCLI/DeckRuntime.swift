import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckStore
import AuthDeckConfig
import AuthDeckProviders
import AuthDeckApp
import AuthDeckUI
import AuthDeckTerminal

/// Runs the interactive deck: the loop that turns input and effect results into actions,
/// `reduce`s them, performs the effects (concurrently, off the loop), and draws.
///
/// `@unchecked Sendable` because background tasks capture it: they read only its `let`s and
/// post to `inbox` (a Mutex); `state`, `tasks` and the reload flags belong to the loop's thread.
final class DeckRuntime: @unchecked Sendable {
    let context: DeckContext
    let config: DeckConfig
    let store: DeckStore
    let themes: [Theme]
    let glyphs: DeckRenderer.Glyphs
    var state: DeckState
    /// Told of every sign-in prompt with the account it is for (the demo's approver, which
    /// approves a device code as the account being signed in). Set before `run`.
    var onSignInPrompt: (@Sendable (_ accountId: String, SignInPrompt) -> Void)?
    /// Results of background work, drained by the loop.
    private let inbox = Inbox()
    /// Sign-ins waiting for a password typed into the deck.
    private let passwords = PasswordAnswers()
    private var tasks: [String: Task<Void, Never>] = [:]
    /// What of `tasks` has not ended yet (see `finishWork`).
    private let running = RunningWork()
    /// Back-off after failed renewals and the bound on renewals at once (4), for as long as
    /// the deck is open.
    private let pacing = RenewalPacing(parallel: 4)
    /// A reload is running off the loop; another is queued behind it when `reloadAgain`.
    private var reloading = false, reloadAgain = false
    /// The store files' size and modification time at the last reload started.
    private var storeStamp: [String] = []

    init(context: DeckContext, config: DeckConfig, store: DeckStore, themes: [Theme], ascii: Bool) {
        self.context = context
        self.config = config
        self.store = store
        self.themes = themes
        self.glyphs = ascii ? .plain : .unicode
        state = DeckState(now: context.clock.now(), storePath: store.location.databasePath, keySource: store.keySource,
                          themeName: themes.first?.name ?? "default", themeNames: themes.map(\.name))
        state.keymap = Keymap.Resolved(overrides: config.keys.compactMapValues(Keymap.key(named:)))
        state.configPath = config.path
    }

    /// - Parameter firstRead: the first read of the store, already under way (see `FirstRead`).
    /// - Returns: the signal (SIGINT, SIGTERM, SIGHUP) that ended the deck, if one did: the
    ///   caller ends with 128 + it once it has cleaned up, as a process killed by it would.
    func run(screen: CursesScreen, firstRead: FirstRead) -> Int32? {
        screen.start()
        defer { screen.stop() }
        dispatch(.resize(width: screen.width, height: screen.height))
        // The first read is done before the first frame, so keys pressed at once (p, R) act
        // on the real rows rather than on an empty deck; later reads run off the loop.
        storeStamp = firstRead.stamp
        dispatch(firstRead.wait())
        var lastTick = context.clock.now(), lastCheck = Date()
        var dataVersion = try? store.dataVersion()
        let trace = context.environment["AUTHDECK_TRACE_FRAMES"].flatMap { FileHandle(forWritingAtPath: $0) ?? Self.create($0) }
        let frames = FrameLog(environment: context.environment)
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
                if firstFrame, let since = ProcessClock.sinceExec(context.environment) { lines = String(format: "first-frame %.3f ms\n", since * 1000) + lines }
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
            let now = context.clock.now()
            if now != lastTick {
                lastTick = now
                dispatch(.tick(now))
            }
            // Other processes change the store too (scripts renewing, logins): the files are
            // looked at every 0.25 s (two stat calls) and, when they changed, SQLite says
            // whether another process committed; this deck's own writes update their rows
            // themselves, and states that change with time alone come with `reloadAt`.
            if Date().timeIntervalSince(lastCheck) >= 0.25 {
                lastCheck = Date()
                let files = stamp()
                if files != storeStamp {
                    storeStamp = files
                    let version = try? store.dataVersion()
                    if version == nil || version != dataVersion {
                        dataVersion = version
                        perform(.reload)
                    }
                }
            }
        }
        screen.stop()
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
        switch effect {
        case .reload:
            reloadInBackground()
        case .refreshRows(let ids):
            let selected = state.selectedID
            let ticket = running.begin("store read")
            Task.detached { [running, inbox] in
                for id in ids {
                    do { inbox.post(try self.rows(sharingIdentityWith: id, selected: selected)) } catch { inbox.post(.failed("\(error)")) }
                }
                running.end(ticket)
            }
        case let .renew(ids, interactive):
            // Many at once (R): the pacing lets at most 4 renewals talk to providers at a time.
            for id in ids { start(id, "renewal") { await self.renew(id, interactive: interactive) } }
        case .renewAhead(let ids):
            for id in ids { start(id, "renewal") { await self.renewAhead(id) } }
        case .prune(let ids):
            // Off the loop, as every other store write: the rules run again on a fresh read, so
            // an account renewed since the preview is kept.
            let pruning = self.pruning
            let before = tasks["prune"]  // a prune and its undo run in the order pressed
            start("prune", "prune") { [inbox, config] in
                await before?.value
                do {
                    let candidates = try pruning.candidates(config, ids: Set(ids))
                    let outcome = try pruning.quarantine(candidates, config: config)
                    inbox.post(.pruned(count: outcome.quarantined.count))
                } catch { inbox.post(.failed("\(error)")) }
            }
        case .undoPrune:
            let pruning = self.pruning
            let before = tasks["prune"]
            start("prune", "restore") { [inbox] in
                await before?.value
                do { inbox.post(.restored(count: try pruning.restore(ids: nil).count)) } catch { inbox.post(.failed("\(error)")) }
            }
        case let .logout(id, clear):
            start(id, "sign-out") { await self.logout(id, clearRegistration: clear) }
        case .makeDefault(let id):
            let store = self.store
            start("default:" + id, "default") { [inbox] in
                do {
                    guard let row = try store.accountRows(includeQuarantined: false).first(where: { $0.id == id }) else {
                        return inbox.post(.defaultSet(id: id, failure: "the account is gone"))
                    }
                    try store.setDefaultAccount(id, provider: row.providerId)
                    inbox.post(.defaultSet(id: id, failure: nil))
                } catch {
                    inbox.post(.defaultSet(id: id, failure: "\(error)"))
                }
            }
        case .signIn(let provider):
            start("new:" + provider, "sign-in") { await self.add(provider) }
        case .cancelSignIn(let id):
            tasks[id]?.cancel()
            tasks[id] = nil
        case let .answerPassword(id, password):
            passwords.answer(id, password)
        case .encodeQR(let uri):
            Task.detached { [inbox] in
                if let matrix = QREncoder.encode(uri) { inbox.post(.qrCode(uri: uri, matrix)) }
            }
        case .openURL(let url):
            _ = context.wiring(store).openInBrowser(url, config: config)
        case .quit:
            break
        }
    }

    func start(_ id: String, _ label: String, _ work: @escaping @Sendable () async -> Void) {
        tasks[id]?.cancel()
        let ticket = running.begin(label)
        tasks[id] = Task.detached { [running] in
            await work()
            running.end(ticket)
        }
    }

    /// Lets the work under way end before the process does: sign-ins waiting for a person
    /// are cancelled (they stop at their next wait), while a renewal or sign-out the provider
    /// may already have answered runs to its end — at most `limit` seconds, each request
    /// having a timeout of its own. Said on standard error when it takes a moment.
    func finishWork(limit: TimeInterval = 30) {
        for task in tasks.values { task.cancel() }
        if running.waitUntilIdle(before: Date() + 0.3) { return }
        Output.stderr("authdeck: finishing \(running.summary()) before leaving, so nothing the provider issued is lost (at most \(Int(limit)) s; Ctrl-C leaves now)\n")
        if !running.waitUntilIdle(before: Date() + limit) {
            Output.stderr("authdeck: left with \(running.summary()) unfinished after \(Int(limit)) s\n")
        }
    }

    var pruning: Pruning { Pruning(store: store, clock: context.clock) }

    /// The deck's re-sign-in, renewal ahead of expiry and new accounts (`Reauthentication`).
    var reauthentication: Reauthentication { Reauthentication(wiring: context.wiring(store), config: config, pacing: pacing) }

    /// Silent renewal first; when only a person can help and `interactive`, the provider's
    /// sign-in flow with its prompts shown as modals.
    func renew(_ id: String, interactive: Bool) async {
        do {
            switch try await reauthentication.renewOrSignIn(id, interactive: interactive, presenter: DeckPresenter(id: id, inbox: inbox, passwords: passwords, observer: onSignInPrompt)) {
            case .renewed:
                inbox.post(.renewFinished(id: id, failure: nil, retryAt: pacing.notBefore(id)))
            case .signedIn(let signed):
                let other = signed.account.id == id ? nil : "\(signed.account.providerId)/\(TerminalText.inert(signed.account.username))"
                inbox.post(.signInFinished(id: id, failure: nil, account: other))
            }
        } catch let f as AuthFailure where interactive {
            inbox.post(.signInFinished(id: id, failure: f.remedy))
        } catch is CancellationError {
            inbox.post(.signInFinished(id: id, failure: DeckReducer.cancelledFailure))
        } catch {
            inbox.post(.renewFinished(id: id, failure: Self.failureText(error), retryAt: pacing.notBefore(id)))
        }
    }

    /// What a failed renewal says in the status line: the provider's remedy, or the error itself.
    static func failureText(_ error: Error) -> String {
        (error as? AuthFailure)?.remedy ?? "\(error)"
    }

    /// Renews `id` so it outlives its provider's `renew_before`, unless it already does or the
    /// pacing holds it back; the reducer learns when to ask again.
    func renewAhead(_ id: String) async {
        do {
            switch try await reauthentication.renewAhead(id) {
            case .renewed:
                inbox.post(.renewFinished(id: id, failure: nil, retryAt: pacing.notBefore(id)))
            case let .failed(error, retryAt):
                inbox.post(.renewFinished(id: id, failure: Self.failureText(error), retryAt: retryAt))
            case .deferred(let until):
                inbox.post(.renewFinished(id: id, failure: "not renewed again before \(until.iso8601)", retryAt: until))
            }
        } catch {
            inbox.post(.renewFinished(id: id, failure: Self.failureText(error), retryAt: pacing.notBefore(id)))
        }
    }

    /// A new account, with the deck's flow (device or browser; a provider that only takes a
    /// password needs the username `authdeck login --password --username` gives).
    func add(_ provider: String) async {
        let key = "new:" + provider
        do {
            let started = context.clock.now()
            let added = try await reauthentication.add(provider, presenter: DeckPresenter(id: key, inbox: inbox, passwords: passwords, observer: onSignInPrompt))
            inbox.post(.signInFinished(id: key, failure: nil, account: "\(provider)/\(TerminalText.inert(added.account.username))",
                                       existing: added.account.createdAt < started))
        } catch let f as AuthFailure {
            inbox.post(.signInFinished(id: key, failure: f.remedy))
        } catch is CancellationError {
            inbox.post(.signInFinished(id: key, failure: DeckReducer.cancelledFailure))
        } catch {
            inbox.post(.signInFinished(id: key, failure: Self.failureText(error)))
        }
    }

    func logout(_ id: String, clearRegistration: Bool) async {
        guard let stored = try? store.account(id: id) else { return inbox.post(.loggedOut(id: id, failure: "the account is gone")) }
        do {
            let adapter = try context.wiring(store).signOutAdapter(forProvider: stored.account.providerId, config: config)
            _ = try await SignOut(store: store, clock: context.clock).run(stored, adapter: adapter, clearRegistration: clearRegistration)
            inbox.post(.loggedOut(id: id, failure: nil))
        } catch let f as AuthFailure {
            inbox.post(.loggedOut(id: id, failure: "could not revoke at the server (\(f.remedy)); nothing was deleted"))
        } catch {
            inbox.post(.loggedOut(id: id, failure: "\(error)"))
        }
    }

    /// Reads the store off the loop so a large store never stalls keys or redraws; reloads
    /// asked for meanwhile collapse into one that runs when this one ends.
    func reloadInBackground() {
        guard !reloading else { reloadAgain = true; return }
        reloading = true
        storeStamp = stamp()
        let selected = state.selectedID
        // Tracked too: a read opening a connection after the demo removed its store would
        // create an empty database there.
        let ticket = running.begin("store read")
        Task.detached { [running] in
            let action: DeckAction
            do { action = try self.load(selected: selected) } catch { action = .failed("\(error)") }
            self.inbox.post(action)
            self.inbox.markReloadEnded()
            running.end(ticket)
        }
    }

    /// Size and modification time of the database and its WAL: cheap evidence of a change.
    func stamp() -> [String] { Self.stamp(store) }

    static func stamp(_ store: DeckStore) -> [String] {
        let db = store.location.databasePath
        return [db, db + "-wal"].map { path in
            let a = try? FileManager.default.attributesOfItem(atPath: path)
            return "\((a?[.size] as? NSNumber)?.int64Value ?? -1)@\((a?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        }
    }

    /// Rows and providers from the store, derived at this instant (the selected account's
    /// last events included).
    func load(selected: String?) throws -> DeckAction {
        try Self.load(context: context, store: store, config: config, selected: selected)
    }

    static func load(context: DeckContext, store: DeckStore, config: DeckConfig, selected: String?) throws -> DeckAction {
        let assessment = try context.assess(store, config)
        let (rows, providers) = snapshot(assessment, store: store, config: config, selected: selected)
        return .loaded(rows: rows, providers: providers, now: assessment.now, changesAt: assessment.changesAt)
    }

    /// The rows of account `id` and of those sharing its provider and subject, read again.
    func rows(sharingIdentityWith id: String, selected: String?) throws -> DeckAction {
        let assessment = try DeckAssessment.read(store, config: config, now: context.clock.now(), sharingIdentityWith: id)
        let rows = Self.snapshot(assessment, store: store, config: config, selected: selected).rows
        return .rowsUpdated(ids: [id] + rows.map(\.id), rows: rows, changesAt: assessment.changesAt)
    }

    static func snapshot(_ assessment: DeckAssessment, store: DeckStore, config: DeckConfig, selected: String?) -> (rows: [DeckRow], providers: [DeckProvider]) {
        var (rows, providers) = DeckSnapshot.make(assessment, providers: config.providers, skew: config.statePolicy.clockSkew) { id in
            id == selected ? ((try? store.events(since: nil, accountId: id, limit: 3)) ?? []).reversed() : []
        }
        // Which providers hold a client authdeck registered (RFC 7591): an oidc provider with
        // no client_id and a stored registration.
        for i in providers.indices where providers[i].kind == .oidc && config.provider(providers[i].id)?.clientId == nil {
            providers[i].dynamicClient = (try? store.providerSecret("registration.client_id", provider: providers[i].id)) != nil
        }
        // Each provider's default account (`authdeck use`), marked on its row.
        let defaults = Set(((try? store.defaultAccounts(providers: config.providers.map(\.id))) ?? [:]).values)
        if !defaults.isEmpty { for i in rows.indices where defaults.contains(rows[i].id) { rows[i].isDefault = true } }
        return (rows, providers)
    }
}

/// Background results waiting for the loop.
final class Inbox: Sendable {
    private let waiting = Mutex((actions: [DeckAction](), reloadEnded: false))
    func post(_ a: DeckAction) { waiting.withLock { $0.actions.append(a) } }
    func drain() -> [DeckAction] { waiting.withLock { w in defer { w.actions.removeAll() }; return w.actions } }
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
    func password(for account: String) async -> Secret? {
        await passwords.wait(for: id) { inbox.post(.passwordPrompt(id: id, account: TerminalText.inert(account))) }
    }
}
