import Foundation
import AuthDeckCore
import AuthDeckStore
import AuthDeckConfig
import AuthDeckApp
import AuthDeckUI
import AuthDeckTerminal

/// The deck's work off its loop: renewals, sign-ins and sign-outs, store reads — each ends by
/// posting an action to the inbox, which the loop drains.
///
/// Why a value of its own: background tasks capture this (Sendable, as each of its parts is)
/// and never the loop, so the compiler checks that no task touches the loop's state; one
/// class holding both could only be `@unchecked Sendable`.
public struct DeckWork: Sendable {
    /// The store, clock and adapters the use cases run with.
    let wiring: ProviderWiring
    let config: DeckConfig
    var store: DeckStore { wiring.store }
    var clock: any WallClock { wiring.clock }
    /// Results for the loop.
    let inbox: Inbox
    /// What of the tasks has not ended yet (see `DeckRuntime.finishWork`).
    let running = RunningWork()
    /// Back-off after failed renewals and the bound on renewals at once (4), for as long as
    /// the deck is open.
    let pacing = RenewalPacing(parallel: 4)
    /// Sign-ins waiting for a password typed into the deck.
    let passwords = PasswordAnswers()
    /// Told of every sign-in prompt with the account it is for (the demo's approver, which
    /// approves a device code as the account being signed in).
    let onSignInPrompt: (@Sendable (_ accountId: String, SignInPrompt) -> Void)?
    /// Hosts' requests waiting for the person's answer in the agent window.
    let confirmer: DeckAgentConfirmer
    /// Hosts' requests waiting for a sign-in the deck does for them.
    let signIns: DeckAgentSignIns

    init(wiring: ProviderWiring, config: DeckConfig, onSignInPrompt: (@Sendable (_ accountId: String, SignInPrompt) -> Void)?) {
        self.wiring = wiring
        self.config = config
        self.onSignInPrompt = onSignInPrompt
        let inbox = Inbox()
        self.inbox = inbox
        confirmer = DeckAgentConfirmer(inbox: inbox, clock: wiring.clock)
        signIns = DeckAgentSignIns(inbox: inbox)
    }

    /// The whole store read again, then the loop told that this reload ended.
    func reload(selected: String?) {
        let action: DeckAction
        do { action = try load(selected: selected) } catch { action = .failed("\(error)") }
        inbox.post(action)
        inbox.markReloadEnded()
    }

    /// The rows of `ids` (and of accounts sharing their identity) read again.
    func refreshRows(_ ids: [String], selected: String?) {
        for id in ids {
            do { inbox.post(try rows(sharingIdentityWith: id, selected: selected)) } catch { inbox.post(.failed("\(error)")) }
        }
    }

    /// Account `id`'s recent events, for the detail pane of the selected row: one indexed read,
    /// no other row touched.
    func readEvents(_ id: String) {
        do {
            inbox.post(.eventsRead(id: id, events: try store.events(since: nil, accountId: id, limit: 3).reversed()))
        } catch { inbox.post(.failed("\(error)")) }
    }

    /// Quarantines `ids`: the rules run again on a fresh read, so an account renewed since the
    /// preview is kept.
    func prune(_ ids: [String]) {
        do {
            let candidates = try pruning.candidates(config, ids: Set(ids))
            let outcome = try pruning.quarantine(candidates, config: config)
            inbox.post(.pruned(count: outcome.quarantined.count))
        } catch { inbox.post(.failed("\(error)")) }
    }

    /// Restores every quarantined account, as `authdeck prune --undo` without names does.
    func undoPrune() {
        do { inbox.post(.restored(count: try pruning.restore(ids: nil).count)) } catch { inbox.post(.failed("\(error)")) }
    }

    /// Makes `id` its provider's default account (`DefaultChoice`, as `authdeck use` does): the
    /// status line says what the use case says.
    func makeDefault(_ id: String) {
        do {
            inbox.post(.defaultSet(id: id, said: try DefaultChoice(store: store).make(id).said, refused: false))
        } catch let refused as DefaultChoice.Refused {
            inbox.post(.defaultSet(id: id, said: refused.reason, refused: true))
        } catch {
            inbox.post(.defaultSet(id: id, said: "\(error)", refused: true))
        }
    }

    /// The QR code of a verification URL, when libqrencode is there to make it.
    func encodeQR(_ uri: String) {
        if let matrix = QREncoder.encode(uri) { inbox.post(.qrCode(uri: uri, matrix)) }
    }

    /// Sign-in prompts of `id` shown as the deck's windows.
    func presenter(_ id: String) -> DeckPresenter {
        DeckPresenter(id: id, inbox: inbox, passwords: passwords, observer: onSignInPrompt)
    }

    var pruning: Pruning { Pruning(store: store, clock: clock) }

    /// The deck's re-sign-in, renewal ahead of expiry and new accounts (`Reauthentication`).
    var reauthentication: Reauthentication { Reauthentication(wiring: wiring, config: config, pacing: pacing) }

    /// Silent renewal first; when only a person can help and `interactive`, the provider's
    /// sign-in flow with its prompts shown as modals.
    /// A host's request waiting for this account (`DeckAgentSignIns`) is told how it ended.
    func renew(_ id: String, interactive: Bool) async {
        var ok = false
        defer { signIns.finished(id, ok: ok) }
        do {
            switch try await reauthentication.renewOrSignIn(id, interactive: interactive, presenter: presenter(id)) {
            case .renewed:
                ok = true
                inbox.post(.renewFinished(id: id, failure: nil, retryAt: pacing.notBefore(id)))
            case .signedIn(let signed):
                let other = signed.account.id == id ? nil : "\(signed.account.providerId)/\(TerminalText.inert(signed.account.username))"
                let failure = TokenAccess.signedInToOtherTenant(signed.account, config: config)
                ok = other == nil && failure == nil
                inbox.post(.signInFinished(id: id, failure: failure, account: other))
            }
        } catch let f as AuthFailure where interactive {
            inbox.post(.signInFinished(id: id, failure: f.remedy))
        } catch is CancellationError {
            inbox.post(.signInFinished(id: id, failure: DeckReducer.cancelledFailure))
        } catch {
            inbox.post(.renewFinished(id: id, failure: Self.failureText(error), retryAt: pacing.notBefore(id)))
        }
    }

    /// What the agent handed to which host and is still live, by account id (`AgentHandOuts`).
    func readHandOuts() {
        do {
            var byAccount: [String: [DeckHandOut]] = [:]
            for held in try AgentHandOuts.read(store, now: clock.now()) {
                guard let id = held.handOut.accountId else { continue }
                byAccount[id, default: []].append(DeckHandOut(host: held.handOut.host, hostClaimed: held.handOut.hostClaimed,
                                                              audience: held.handOut.audience, until: held.handOut.expiresAt))
            }
            inbox.post(.handOutsRead(byAccount))
        } catch { inbox.post(.failed("\(error)")) }
    }

    /// What a failed renewal says in the status line: the provider's remedy, or the error itself.
    static func failureText(_ error: Error) -> String {
        (error as? AuthFailure)?.remedy ?? "\(error)"
    }

    /// Renews `id` so it outlives its provider's `renew_before`, unless it already does or the
    /// pacing holds it back; the reducer learns when to ask again.
    /// A host's request waiting for this account's sign-in is answered when this renewal made
    /// one needless; otherwise it waits on (the deck's own sign-in, or its timeout).
    func renewAhead(_ id: String) async {
        do {
            switch try await reauthentication.renewAhead(id) {
            case .renewed:
                signIns.finished(id, ok: true)
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
            let started = clock.now()
            let added = try await reauthentication.add(provider, presenter: presenter(key))
            let name = "\(provider)/\(TerminalText.inert(added.account.username))"
            inbox.post(.signInFinished(id: key, failure: TokenAccess.signedInToOtherTenant(added.account, config: config).map { "\(TerminalText.inert(added.account.username)) \($0)" },
                                       account: name, existing: added.account.createdAt < started))
        } catch let f as AuthFailure {
            inbox.post(.signInFinished(id: key, failure: f.remedy))
        } catch is CancellationError {
            inbox.post(.signInFinished(id: key, failure: DeckReducer.cancelledFailure))
        } catch {
            inbox.post(.signInFinished(id: key, failure: Self.failureText(error)))
        }
    }

    /// Signs `id` out through `SignOut`, as `authdeck logout` does: its default and (asked
    /// with `c`, for the provider's last account) its dynamic client registration go with it.
    func logout(_ id: String, clearRegistration: Bool) async {
        do {
            // A record edited without the key is said as the store says it (which names
            // `logout --local`), not as "gone": it is there, and only that deletes it unopened.
            guard let stored = try store.account(id: id) else { return inbox.post(.loggedOut(id: id, failure: "the account is gone")) }
            _ = try await SignOut(store: store, clock: clock).run(stored, wiring: wiring, config: config, clearRegistration: clearRegistration)
            inbox.post(.loggedOut(id: id, failure: nil))
        } catch let stopped as SignOut.Stopped {
            inbox.post(.loggedOut(id: id, failure: stopped.reason))
        } catch {
            inbox.post(.loggedOut(id: id, failure: "\(error)"))
        }
    }

    /// Size and modification time of the database and its WAL: cheap evidence of a change.
    func stamp() -> [String] { Self.stamp(store) }

    public static func stamp(_ store: DeckStore) -> [String] {
        let db = store.location.databasePath
        return [db, db + "-wal"].map { path in
            let a = try? FileManager.default.attributesOfItem(atPath: path)
            return "\((a?[.size] as? NSNumber)?.int64Value ?? -1)@\((a?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        }
    }

    /// Rows and providers from the store, derived at this instant (the selected account's
    /// last events included).
    func load(selected: String?) throws -> DeckAction {
        try Self.load(store: store, config: config, now: clock.now(), selected: selected)
    }

    /// The whole deck as the store holds it at `now` (the first read calls this before a
    /// runtime exists).
    public static func load(store: DeckStore, config: DeckConfig, now: Instant, selected: String?) throws -> DeckAction {
        let assessment = try DeckAssessment.read(store, config: config, now: now)
        let (rows, providers) = snapshot(assessment, store: store, config: config, selected: selected)
        return .loaded(rows: rows, providers: providers, now: assessment.now, changesAt: assessment.changesAt)
    }

    /// The rows of account `id` and of those sharing its provider and subject, read again.
    func rows(sharingIdentityWith id: String, selected: String?) throws -> DeckAction {
        let assessment = try DeckAssessment.read(store, config: config, now: clock.now(), sharingIdentityWith: id)
        let rows = Self.snapshot(assessment, store: store, config: config, selected: selected).rows
        return .rowsUpdated(ids: [id] + rows.map(\.id), rows: rows, changesAt: assessment.changesAt)
    }

    static func snapshot(_ assessment: DeckAssessment, store: DeckStore, config: DeckConfig, selected: String?) -> (rows: [DeckRow], providers: [DeckProvider]) {
        var (rows, providers) = DeckSnapshot.make(assessment, providers: config.providers, skew: config.statePolicy.clockSkew) { id in
            id == selected ? ((try? store.events(since: nil, accountId: id, limit: 3)) ?? []).reversed() : nil
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
