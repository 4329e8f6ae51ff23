import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore

/// The agent's answers (docs/agent.md): a token, a cookie header, or what git, kubectl or
/// docker read, for a host that asks through the agent's socket — the same answers `token`,
/// `cookies` and the helpers give locally, through the same use cases (`TokenAccess`,
/// `CookieAccess`, `CredentialRouting`), decided by `AgentPolicy`, each answer and refusal an
/// event (`AgentHandOut`).
///
/// Only access tokens and cookie headers leave: never a refresh token, client secret,
/// password or the store. Nothing is picked for an ambiguous ACCOUNT (the person is not at the
/// remote's terminal); a network failure answers `unavailable` and downgrades nothing; a
/// sign-in happens where the person is (`AgentSigningIn`), bounded by the request's timeout.
public struct AgentService: Sendable {
    /// How long a request without `timeout=` may take (the confirmation and a sign-in included).
    public static let defaultTimeout = 60.0
    /// The longest `timeout=` honoured: a remote cannot hold a confirmation open for hours.
    public static let maxTimeout = 900.0
    /// The longest account, host or client name a request may give.
    public static let maxName = 255

    let wiring: ProviderWiring
    let config: DeckConfig
    public let policy: AgentPolicy
    let signingIn: (any AgentSigningIn)?

    public init(wiring: ProviderWiring, config: DeckConfig, policy: AgentPolicy, signingIn: (any AgentSigningIn)? = nil) {
        self.wiring = wiring
        self.config = config
        self.policy = policy
        self.signingIn = signingIn
    }

    /// The answer to one request from `peer`. Never throws: every failure is an answer with a
    /// status, a sentence and an exit status, and every answer or refusal of a credential is
    /// recorded as an event.
    public func answer(_ request: AgentMessage, from peer: AgentPeer) async -> AgentMessage {
        let ask = Ask(request: request, peer: peer, started: ContinuousClock.now)
        guard request["v"] == AgentMessage.version else {
            return Self.failure(.failed, "the request has no v=1 (this agent speaks version 1 of docs/agent.md)", exit: ExitStatus.usage)
        }
        // Names are echoed in answers and events: a remote's 64 KB "account" is refused unread.
        if let long = request.fields.first(where: { ["account", "host", "client"].contains($0.key) && $0.value.utf8.count > Self.maxName }) {
            return Self.failure(.failed, "\(long.key)= is \(long.value.utf8.count) bytes long (at most \(Self.maxName))", exit: ExitStatus.usage)
        }
        switch ask.op {
        case "token", "kube": return await token(ask)
        case "cookies": return await cookies(ask)
        case "git": return await git(ask)
        case "docker": return await docker(ask)
        case "routes": return routes()
        case "session":
            return Self.failure(.failed, "op=session is answered on the agent's main socket only (a session cannot open another)", exit: ExitStatus.usage)
        case "": return Self.failure(.failed, "the request names no op= (token, cookies, git, kube, docker, routes or session)", exit: ExitStatus.usage)
        default:
            return Self.failure(.failed, "op=\(TerminalText.inert(String(ask.op.prefix(40)))) is not one this agent answers "
                                + "(token, cookies, git, kube, docker, routes or session)", exit: ExitStatus.usage)
        }
    }

    // MARK: ops

    func token(_ ask: Ask) async -> AgentMessage {
        guard let query = ask.request["account"], !query.trimmingWhitespace().isEmpty else {
            return Self.failure(.failed, "op=\(ask.op) needs account=", exit: ExitStatus.usage)
        }
        let scopes = ask.request.values("scope")
        return await handOut(ask, query: query, scopes: scopes, holding: .tokens) { stored in
            let token = try await TokenAccess(wiring: wiring, config: config).token(stored, scopes: scopes)
            var fields: [(String, String)] = [("access_token", token.value.exposedValue)]
            if ask.op == "token" { fields.append(("token_type", token.tokenType)) }
            if let at = token.expiresAt { fields.append(("expires_at", String(at.secondsSinceEpoch))) }
            if ask.op == "token" {
                let a = stored.account
                fields += token.scopes.map { ("scope", $0) }
                fields += [("account", a.id), ("provider", a.providerId), ("username", a.username)]
                if let realm = a.realm { fields.append(("realm", realm)) }
            }
            return (fields, token.expiresAt)
        }
    }

    func cookies(_ ask: Ask) async -> AgentMessage {
        guard let query = ask.request["account"], !query.trimmingWhitespace().isEmpty else {
            return Self.failure(.failed, "op=cookies needs account=", exit: ExitStatus.usage)
        }
        let url = ask.request["url"]
        if let url, let refusal = SecretDestination.refusal(.cookie, to: url) {
            return Self.failure(.refused, "cookies for \(TerminalText.inert(String(url.prefix(200)))): \(refusal); nothing was given", exit: ExitStatus.needsSignIn)
        }
        return await handOut(ask, query: query, scopes: nil, audience: url, holding: .cookies) { stored in
            let fresh = try await CookieAccess(wiring: wiring, config: config).cookies(stored)
            // With no URL, every cookie of the account, as `authdeck cookies --format header`
            // prints them on this machine (a site's cookies may live on hosts other than `site`).
            let chosen = url.map { t in fresh.filter { $0.goes(to: t) } } ?? fresh
            guard !chosen.isEmpty else {
                throw Refusal.failure("no cookie of \(stored.account.id) goes to \(TerminalText.inert(url ?? "its site"))")
            }
            let header: String
            do { header = try NetscapeCookieJar.headerValue(chosen) } catch {
                throw Refusal.failure("\(stored.account.id): \(error); sign in again or import the cookies again")
            }
            let a = stored.account
            let expiry = chosen.compactMap(\.expiresAt).min()
            var fields: [(String, String)] = [("cookie_header", header)]
            if let expiry { fields.append(("expires_at", String(expiry.secondsSinceEpoch))) }
            fields += [("account", a.id), ("provider", a.providerId), ("username", a.username)]
            return (fields, expiry)
        }
    }

    func git(_ ask: Ask) async -> AgentMessage {
        guard let url = ask.request["url"], !url.isEmpty else { return Self.failure(.failed, "op=git needs url=", exit: ExitStatus.usage) }
        switch CredentialRouting.git(url, in: config) {
        case .none(let reason):
            return Self.failure(.none, reason.map { "git-credential for \(TerminalText.inert(url)): \($0); nothing was given to git" }
                                    ?? "no [[credential]] entry covers \(TerminalText.inert(url))", exit: ExitStatus.ok)
        case .route(let route):
            return await handOut(ask, query: route.account, scopes: route.scopes, audience: url, holding: .tokens, route: route) { stored in
                let token = try await TokenAccess(wiring: wiring, config: config).token(stored, scopes: route.scopes)
                guard GitCredentialRequest.answer(username: route.username ?? stored.account.username, token: token.value.exposedValue,
                                                  expiresAt: token.expiresAt) != nil else {
                    throw Refusal.failure("git-credential for \(TerminalText.inert(url)): the username or token holds a line break; nothing was given to git")
                }
                var fields: [(String, String)] = [("username", route.username ?? stored.account.username), ("password", token.value.exposedValue)]
                if let at = token.expiresAt { fields.append(("expires_at", String(at.secondsSinceEpoch))) }
                return (fields, token.expiresAt)
            }
        }
    }

    func docker(_ ask: Ask) async -> AgentMessage {
        guard let server = ask.request["server"]?.trimmingWhitespace(), !server.isEmpty else {
            return Self.failure(.failed, "op=docker needs server=", exit: ExitStatus.usage)
        }
        switch CredentialRouting.docker(server, in: config) {
        case .refused(let why): return Self.failure(.failed, why, exit: ExitStatus.failure)
        case .notFound: return Self.failure(.none, "credentials not found in native keychain", exit: ExitStatus.failure)
        case .route(let route, let host):
            return await handOut(ask, query: route.account, scopes: route.scopes, audience: server, holding: .tokens, route: route) { stored in
                let token = try await TokenAccess(wiring: wiring, config: config).token(stored, scopes: route.scopes)
                let (user, secret) = try await CredentialRouting.dockerSecret(route, host: host, token: token, username: route.username ?? stored.account.username,
                                                                              environment: wiring.environment, http: wiring.http)
                // An ACR refresh token's lifetime is the registry's; the Entra token's bounds it.
                return ([("server_url", server), ("username", user), ("secret", secret)], token.expiresAt)
            }
        }
    }

    /// The `[[credential]]` routes, without a secret: what `setup-git` and `setup-kube` read on
    /// a remote machine that has no config of its own. Each route is `url=`, `kind=` (git,
    /// docker or acr), `account=` and `scopes=` (space-separated), in that order.
    func routes() -> AgentMessage {
        var fields: [(String, String)] = [("status", "ok")]
        for route in config.credentials {
            fields += [("url", route.url), ("kind", route.isACR ? "acr" : route.isDockers ? "docker" : "git"), ("account", route.account),
                       ("scopes", route.scopes.joined(separator: " "))]
        }
        return AgentMessage(fields)
    }

    // MARK: the common path

    /// What a request is, for every op: the message, who sent it, when it started.
    struct Ask: Sendable {
        var request: AgentMessage
        var peer: AgentPeer
        var started: ContinuousClock.Instant
        var op: String { request["op"] ?? "" }
        var client: String { String((request["client"] ?? op).prefix(64)) }
        /// The request's `timeout=` (default `defaultTimeout`, at most `maxTimeout`).
        var timeout: Double {
            guard let text = request["timeout"], let t = Double(text), t.isFinite, t >= 0 else { return AgentService.defaultTimeout }
            return min(t, AgentService.maxTimeout)
        }
        /// Seconds left of the request's timeout.
        var remaining: Double {
            let spent = ContinuousClock.now - started
            return max(0, timeout - Double(spent.components.seconds) - Double(spent.components.attoseconds) / 1e18)
        }
    }

    enum Holding { case tokens, cookies }

    /// Resolve the account, ask the policy, make the credential (a sign-in where the person is,
    /// when only that helps), answer, record.
    func handOut(_ ask: Ask, query: String, scopes: [String]?, audience: String? = nil, holding: Holding, route: CredentialRoute? = nil,
                 make: (StoredAccount) async throws -> (fields: [(String, String)], expiresAt: Instant?)) async -> AgentMessage {
        let named = route.map { "[[credential]] url \"\($0.url)\": account " } ?? ""
        var event = AgentHandOut(host: ask.peer.host, hostClaimed: ask.peer.hostClaimed, session: ask.peer.session, accountId: nil,
                                 audience: audience ?? scopes?.joined(separator: " ") ?? "", client: ask.client, op: ask.op,
                                 peerPid: ask.peer.pid, peerUid: ask.peer.uid)
        let stored: StoredAccount
        switch resolve(query) {
        case .success(let found): stored = found
        case .failure(let answer):
            let message = named + (answer["message"] ?? "")
            return refuse(&event, status: answer["status"] ?? "failed", message: message, exit: answer["exit"] ?? "1")
        }
        event.accountId = stored.account.id
        let profile = config.provider(stored.account.providerId)
        if let profile {
            let capabilities = ProviderCapabilities.of(profile)
            if holding == .tokens, !capabilities.producesTokens {
                return refuse(&event, status: "failed", message: "\(stored.account.id) is \(profile.kind.labelWithArticle) account: it holds cookies, not tokens; ask op=cookies",
                              exit: String(ExitStatus.usage), provider: profile.id)
            }
            if holding == .cookies, !capabilities.producesCookies {
                return refuse(&event, status: "failed", message: "\(stored.account.id) is \(profile.kind.labelWithArticle) account: it holds tokens, not cookies; ask op=token",
                              exit: String(ExitStatus.usage), provider: profile.id)
            }
        }
        // The scopes the policy weighs: what was asked, or what the provider gives when none was.
        let weighed = scopes.map { $0.isEmpty ? (profile?.scopes ?? []) : $0 }
        if event.audience.isEmpty { event.audience = weighed?.joined(separator: " ") ?? "" }
        let name = "\(stored.account.providerId)/\(stored.account.username)"
        let confirmAsk = AgentAsk(host: ask.peer.host, hostClaimed: ask.peer.hostClaimed, session: ask.peer.session, accountId: stored.account.id,
                                  accountName: name, audience: event.audience, client: ask.client)
        switch await policy.decide(confirmAsk, account: stored.account, scopes: weighed, now: wiring.clock.now(), timeout: ask.remaining) {
        case .refused(let why):
            return refuse(&event, status: "refused", message: "the agent refused \(TerminalText.inert(stored.account.id)) to "
                          + "\(TerminalText.inert(ask.peer.host)): \(why)", exit: String(ExitStatus.needsSignIn), reason: why, provider: stored.account.providerId)
        case .allowed(let how):
            event.reason = how
        }
        do {
            let made: (fields: [(String, String)], expiresAt: Instant?)
            do {
                made = try await make(stored)
            } catch let error as ReportedError where Self.onlyASignInHelps(error) {
                guard let signingIn, ask.remaining > 0 else { throw error }
                guard await signingIn.signIn(stored, timeout: ask.remaining), let again = try wiring.store.account(id: stored.account.id) else {
                    throw TokenAccess.NeedsSignIn(remedy: "\(stored.account.id) needs a sign-in on the agent's machine and none was finished in time: \(error.sentence)")
                }
                made = try await make(again)
            }
            event.expiresAt = made.expiresAt
            record(.agentAnswered, event, provider: stored.account.providerId)
            return AgentMessage([("status", "ok")] + made.fields)
        } catch let error as ReportedError {
            let status: String
            switch error.exitStatus {
            case ExitStatus.needsSignIn: status = "needs-sign-in"
            case ExitStatus.transient: status = "unavailable"
            default: status = "failed"
            }
            return refuse(&event, status: status, message: error.sentence, exit: String(error.exitStatus), provider: stored.account.providerId)
        } catch {
            return refuse(&event, status: "failed", message: "\(stored.account.id): \(error)", exit: String(ExitStatus.failure), provider: stored.account.providerId)
        }
    }

    /// Whether only a person signing in can give what `error` withheld.
    static func onlyASignInHelps(_ error: ReportedError) -> Bool {
        if error is TokenAccess.NeedsSignIn { return true }
        if let failure = error as? AuthFailure { return failure.errorClass == .needsInteraction }
        return false
    }

    /// The account ACCOUNT names, by the same matcher as every command — but nothing is picked
    /// for an ambiguous name: the candidates are named, and the person on the agent's side
    /// can make one the provider's default (`authdeck use`).
    func resolve(_ query: String) -> Result<StoredAccount, AgentFailure> {
        let store = wiring.store
        do {
            let accounts = try store.accountRows(includeQuarantined: false)
            switch AccountMatcher.resolve(query, in: accounts, defaultAccount: { try? store.defaultAccount(provider: $0) }) {
            case .found(let account):
                if query != account.id {
                    let tampered = try store.tamperedAccountIds()
                    if let named = tampered.contains(account.id) ? account.id : tampered.first { throw StoreError.accountTampered(accountId: named) }
                }
                guard let stored = try store.account(id: account.id) else {
                    return .failure(AgentFailure(Self.failure(.failed, "\(account.id) was removed just now", exit: ExitStatus.failure)))
                }
                return .success(stored)
            case .ambiguous(let all):
                let list = all.map { "\($0.id) (\(TerminalText.inert($0.providerId + "/" + $0.username)))" }.joined(separator: ", ")
                return .failure(AgentFailure(Self.failure(.failed, "\"\(TerminalText.inert(query))\" matches \(all.count) accounts: \(list); ask for one "
                                                          + "by id, or make one the provider's default on the agent's machine (`authdeck use ID`)", exit: ExitStatus.usage)))
            case .defaultMissing(let provider, let id):
                return .failure(AgentFailure(Self.failure(.needsSignIn, "\(TerminalText.inert(provider))'s default account \(TerminalText.inert(id)) is gone "
                                                          + "from the agent's store; choose one there with `authdeck use ACCOUNT`", exit: ExitStatus.needsSignIn)))
            case .notFound:
                return .failure(AgentFailure(Self.failure(.failed, "no account matches \"\(TerminalText.inert(query))\" in the agent's store", exit: ExitStatus.usage)))
            }
        } catch let error as ReportedError {
            return .failure(AgentFailure(Self.failure(.failed, "the agent's store: \(error.sentence)", exit: error.exitStatus)))
        } catch {
            return .failure(AgentFailure(Self.failure(.failed, "the agent's store cannot be read: \(error)", exit: ExitStatus.failure)))
        }
    }

    /// A failure answer carried through `Result`.
    struct AgentFailure: Error {
        let answer: AgentMessage
        init(_ answer: AgentMessage) { self.answer = answer }
        subscript(key: String) -> String? { answer[key] }
    }

    func refuse(_ event: inout AgentHandOut, status: String, message: String, exit: String, reason: String? = nil, provider: String? = nil) -> AgentMessage {
        event.reason = reason ?? "\(status): \(message)"
        record(.agentRefused, event, provider: provider)
        return AgentMessage([("status", status), ("message", message), ("exit", exit)])
    }

    /// Records an answer or refusal; a store that cannot take the event does not cost the
    /// remote its answer (the answer is what it waits for), but nothing secret is ever in it.
    func record(_ kind: DeckEvent.Kind, _ event: AgentHandOut, provider: String?) {
        try? wiring.store.append(DeckEvent(at: wiring.clock.now(), kind: kind, accountId: event.accountId, providerId: provider, detail: event.detail))
    }

    /// The statuses of docs/agent.md.
    public enum Status: String, Sendable {
        case ok, none, refused, failed, unavailable
        case needsSignIn = "needs-sign-in"
    }

    /// An answer that is not `ok`: the status, the sentence and the exit status.
    public static func failure(_ status: Status, _ message: String, exit: Int32) -> AgentMessage {
        AgentMessage([("status", status.rawValue), ("message", message), ("exit", String(exit))])
    }
}

extension AgentService {
    /// Records a refusal the server made before any request was read (another user on the
    /// socket): the event names the peer's uid and pid.
    public func recordRefusal(_ peer: AgentPeer, op: String, reason: String) {
        let event = AgentHandOut(host: peer.host, hostClaimed: peer.hostClaimed, session: peer.session, accountId: nil, audience: "",
                                 client: "", op: op, reason: reason, peerPid: peer.pid, peerUid: peer.uid)
        record(.agentRefused, event, provider: nil)
    }
}
