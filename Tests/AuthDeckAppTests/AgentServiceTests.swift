import Testing
import Foundation
import Synchronization
import AuthDeckCore
import AuthDeckConfig
import AuthDeckStore
import AuthDeckPlatform
import AuthDeckApp
import AuthDeckTestSupport

/// `AgentService` and `AgentPolicy` over a real store and the real Azure AD adapter on a
/// scripted network: what a host gets, who decided, what the events say, and that a refusal,
/// an outage or an ambiguous name hands nothing out and changes nothing.
@Suite struct AgentServiceTests {
    let clock = MutableClock(Instant(secondsSinceEpoch: 1_800_000_000))
    let dir = TempDirectory()
    static let tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    static let tokenURL = "https://login.test/\(tenant)/oauth2/v2.0/token"
    static let graph = "https://graph.microsoft.com/.default"

    /// A confirmer that answers as told and counts how often it was asked.
    final class Scripted: AgentConfirming, Sendable {
        let decision: AgentDecision?
        let asked = Mutex<[AgentAsk]>([])
        init(_ decision: AgentDecision?) { self.decision = decision }
        func confirm(_ ask: AgentAsk, timeout: Double) async -> AgentDecision {
            asked.withLock { $0.append(ask) }
            guard let decision else {
                // A person who never answers: far longer than any request's timeout.
                try? await Task.sleep(for: .seconds(30))
                return .once
            }
            return decision
        }
        var count: Int { asked.withLock { $0.count } }
    }

    /// A sign-in port that stores a fresh token for the account, as a finished sign-in would.
    final class StoringSignIn: AgentSigningIn, Sendable {
        let store: DeckStore
        let clock: MutableClock
        let calls = Mutex<Int>(0)
        init(store: DeckStore, clock: MutableClock) { self.store = store; self.clock = clock }
        func signIn(_ stored: StoredAccount, timeout: Double) async -> Bool {
            calls.withLock { $0 += 1 }
            var fresh = stored
            fresh.account.lastError = nil
            fresh.credentials.accessTokens = [AccessToken(id: "at-signed", value: Secret("at-after-sign-in"), scopes: [AgentServiceTests.graph],
                                                          obtainedAt: clock.now(), expiresAt: clock.now() + .hours(1))]
            return (try? store.saveSignIn(fresh.account, credentials: fresh.credentials,
                                          event: DeckEvent(at: clock.now(), kind: .signInSucceeded, accountId: fresh.account.id))) != nil
        }
    }

    /// A real store with `work/a0` (a valid token until now + 1 h) and `work/a1` (another user
    /// of the same provider), and a config with `extra` appended.
    func setUp(_ http: ScriptedHTTPClient = ScriptedHTTPClient(), extra: String = "", expiredToken: Bool = false,
               needsSignIn: Bool = false) throws -> (ProviderWiring, DeckConfig) {
        let store = try DeckStore.open(StoreLocation(databasePath: dir.file("s.db"), keyFilePath: dir.file("k")), clock: clock)
        for (n, user) in ["taro@contoso.com", "hanako@contoso.com"].enumerated() {
            let error = needsSignIn && n == 0 ? AccountError(errorClass: .needsInteraction, code: "invalid_grant", remedy: "sign in again", at: clock.now()) : nil
            let account = Account(id: "work/a\(n)", providerId: "work", subject: "oid\(n).\(Self.tenant)", username: user, displayName: "",
                                  realm: Self.tenant, createdAt: clock.now() - .days(1), lastSignInAt: clock.now() - .hours(2), lastUsedAt: nil, lastError: error)
            let expiry = expiredToken || needsSignIn ? clock.now() - .hours(1) : clock.now() + .hours(1)
            let credentials = Credentials(accessTokens: [AccessToken(id: "at\(n)", value: Secret("at-secret-\(n)"), scopes: [Self.graph],
                                                                     obtainedAt: clock.now() - .hours(2), expiresAt: expiry)],
                                          refreshToken: RefreshToken(id: "rt\(n)", value: Secret("rt-secret-\(n)"), generation: 1, obtainedAt: clock.now() - .hours(2)))
            try store.insert(StoredAccount(account: account, credentials: credentials))
        }
        let config = try ConfigLoader.parse("""
            [[provider]]
            id = "work"
            kind = "azuread"
            client_id = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
            scopes = ["\(Self.graph)"]
            endpoints = { authority = "https://login.test" }
            options = { tenant = "\(Self.tenant)" }
            \(extra)
            """, path: dir.file("config.toml"))
        return (ProviderWiring(store: store, clock: clock, environment: [:], http: http), config)
    }

    func request(_ pairs: [(String, String)]) -> AgentMessage { AgentMessage(pairs) }
    let session = AgentPeer(host: "build1", hostClaimed: false, session: "s1", pid: 42, uid: 0)

    func agentEvents(_ wiring: ProviderWiring) throws -> [DeckEvent] {
        try wiring.store.events(since: nil, accountId: nil, kinds: [.agentAnswered, .agentRefused], limit: nil)
    }

    /// A cookie header with no URL asked holds every cookie of the account, as `authdeck cookies
    /// --format header` prints them here: a site's cookies may live on another host than its
    /// `site` (the demo's on the emulator's 127.0.0.1), and filtering by `site` gave nothing.
    /// With a URL, only the cookies that go there.
    /// A remote's oversized names are refused without being echoed (a trial's 65,000-byte
    /// account came back whole in the message, and a long claimed host filled the deck's list).
    @Test func anOversizedNameIsRefusedUnread() async throws {
        let (wiring, config) = try setUp(extra: """
            [[agent]]
            host = "*"
            accounts = ["work"]
            """)
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: config.agentAllows, confirmer: nil))
        for field in ["account", "host", "client"] {
            var pairs = [("op", "token"), ("account", "work/a0"), ("host", "h"), ("client", "token")]
            pairs = pairs.map { $0.0 == field ? ($0.0, String(repeating: "A", count: 65_000)) : $0 }
            let answer = await service.answer(request(pairs), from: session)
            #expect(answer["status"] == "failed" && answer["message"] == "\(field)= is 65000 bytes long (at most 255)", "\(field): \(answer)")
            #expect(answer["access_token"] == nil)
        }
        #expect(try agentEvents(wiring).isEmpty, "nothing was handed out, nothing recorded under a 64 KB name")
    }

    @Test func aCookieHeaderIsWhatTheLocalCommandPrints() async throws {
        let (wiring, config) = try setUp(extra: """
            [[provider]]
            id = "sp"
            kind = "sharepoint"
            options = { site = "contoso.sharepoint.com", azure_provider = "work" }

            [[agent]]
            host = "build*"
            accounts = ["sp"]
            """)
        let account = Account(id: "sp/c0", providerId: "sp", subject: "taro@contoso.com", username: "taro@contoso.com", displayName: "",
                              realm: "contoso.sharepoint.com", createdAt: clock.now() - .days(1), lastSignInAt: clock.now() - .hours(1),
                              lastUsedAt: nil, lastError: nil)
        let cookies = [Cookie(id: "c1", name: "FedAuth", value: Secret("fedauth-value"), domain: "127.0.0.1", expiresAt: clock.now() + .hours(8)),
                       Cookie(id: "c2", name: "rtFa", value: Secret("rtfa-value"), domain: "127.0.0.1", expiresAt: clock.now() + .hours(9))]
        try wiring.store.insert(StoredAccount(account: account, credentials: Credentials(cookies: cookies)))
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: config.agentAllows, confirmer: nil))
        let all = await service.answer(request([("op", "cookies"), ("account", "sp/c0")]), from: session)
        #expect(all["status"] == "ok", "\(all)")
        #expect(all["cookie_header"] == "FedAuth=fedauth-value; rtFa=rtfa-value")
        #expect(all["expires_at"] == String((clock.now() + .hours(8)).secondsSinceEpoch))
        let elsewhere = await service.answer(request([("op", "cookies"), ("account", "sp/c0"), ("url", "https://contoso.sharepoint.com/")]), from: session)
        #expect(elsewhere["status"] == "failed" && elsewhere["message"]?.contains("no cookie of sp/c0 goes to https://contoso.sharepoint.com/") == true,
                "\(elsewhere)")
    }

    @Test func anAllowListEntryHandsTheTokenAndTheEventSaysWhatWentWhereWithoutTheSecret() async throws {
        let (wiring, config) = try setUp(extra: """
            [[agent]]
            host = "build*"
            accounts = ["work/taro@contoso.com"]
            """)
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: config.agentAllows, confirmer: nil))
        let answer = await service.answer(request([("op", "token"), ("account", "work/a0"), ("client", "token")]), from: session)
        #expect(answer["status"] == "ok", "\(answer)")
        #expect(answer["access_token"] == "at-secret-0")
        #expect(answer["expires_at"] == String((clock.now() + .hours(1)).secondsSinceEpoch))
        #expect(answer["account"] == "work/a0" && answer["username"] == "taro@contoso.com" && answer.values("scope") == [Self.graph])
        #expect(answer["refresh_token"] == nil && !answer.body().containsSubsequence(Array("rt-secret".utf8)), "no refresh token crosses")
        let events = try agentEvents(wiring)
        #expect(events.count == 1 && events[0].kind == .agentAnswered && events[0].accountId == "work/a0")
        let handOut = try #require(AgentHandOut(detail: events[0].detail))
        #expect(handOut.host == "build1" && !handOut.hostClaimed && handOut.session == "s1" && handOut.audience == Self.graph)
        #expect(handOut.client == "token" && handOut.expiresAt == clock.now() + .hours(1) && handOut.reason == "allow #1")
        #expect(!events[0].detail.contains("at-secret"), "the event never holds the token")
        // The deck's view: which hosts hold which tokens until when.
        let held = try AgentHandOuts.read(wiring.store, now: clock.now())
        #expect(held.map(\.handOut.host) == ["build1"] && held[0].handOut.expiresAt == clock.now() + .hours(1))
        clock.advance(.hours(2))
        #expect(try AgentHandOuts.read(wiring.store, now: clock.now()).isEmpty, "an expired hand-out is no longer held")
    }

    @Test func anExpiredAllowRefusesWhenNoOneCanConfirmAndAsksWhenSomeoneCan() async throws {
        let (wiring, config) = try setUp(extra: """
            [[agent]]
            host = "build1"
            accounts = ["work"]
            expires = 2020-01-01T00:00:00Z
            """)
        let alone = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: config.agentAllows, confirmer: nil))
        let refused = await alone.answer(request([("op", "token"), ("account", "work/a0")]), from: session)
        #expect(refused["status"] == "refused" && refused["exit"] == "3", "\(refused)")
        #expect(refused["message"]?.contains("[[agent]] #1") == true && refused["message"]?.contains("expired") == true, "\(refused)")
        #expect(refused["access_token"] == nil)
        let asked = Scripted(.deny)
        let withPerson = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: config.agentAllows, confirmer: asked))
        let denied = await withPerson.answer(request([("op", "token"), ("account", "work/a0")]), from: session)
        #expect(asked.count == 1 && denied["status"] == "refused" && denied["message"]?.contains("denied") == true, "\(denied)")
        let events = try agentEvents(wiring)
        #expect(events.map(\.kind) == [.agentRefused, .agentRefused])
        #expect(events.allSatisfy { !$0.detail.contains("at-secret") })
    }

    @Test func aConnectionGrantCoversTheSessionOnlyAndEndsWithIt() async throws {
        let (wiring, config) = try setUp()
        let person = Scripted(.connection)
        let policy = AgentPolicy(allows: [], confirmer: person)
        let service = AgentService(wiring: wiring, config: config, policy: policy)
        let ask = request([("op", "token"), ("account", "work/a0")])
        #expect(await service.answer(ask, from: session)["status"] == "ok")
        #expect(await service.answer(ask, from: session)["status"] == "ok")
        #expect(person.count == 1, "the second request of the session is covered by the grant")
        // Another session, and a host that only claims its name on the main socket, are asked.
        _ = await service.answer(ask, from: AgentPeer(host: "build1", hostClaimed: false, session: "s2"))
        _ = await service.answer(ask, from: AgentPeer.claimed(by: request([("host", "build1")])))
        #expect(person.count == 3)
        #expect(await policy.hasGrant(session: "s1", accountId: "work/a0"))
        #expect(!(await policy.hasGrant(session: "s1", accountId: "work/a1")), "a grant is for one account")
        await policy.endSession("s1")
        _ = await service.answer(ask, from: session)
        #expect(person.count == 4, "the grant ended with its session")
    }

    @Test func aPersonWhoDoesNotAnswerIsADenyWithinTheRequestsTimeout() async throws {
        let (wiring, config) = try setUp()
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: [], confirmer: Scripted(nil)))
        // On threads of its own, as `AgentServer` runs it, and timed there: the shared pool may
        // be held by other suites' blocking waits.
        let (answer, took) = await withTaskExecutorPreference(ThreadExecutor(label: "authdeck.agent-timeout-test")) {
            let started = ContinuousClock.now
            let answer = await service.answer(request([("op", "token"), ("account", "work/a0"), ("timeout", "0.5")]), from: session)
            return (answer, ContinuousClock.now - started)
        }
        #expect(answer["status"] == "refused" && answer["message"]?.contains("no answer") == true, "\(answer)")
        // A person who never answers would hold the request forever: an answer at all proves the
        // bound. The limit is loose because the swift-testing pool this runs on is shared with
        // tests that block it (a sleep's wake-up waited 6 s there under the whole suite).
        #expect(took < .seconds(20), "bounded by timeout=0.5, took \(took)")
    }

    @Test func anAmbiguousAccountIsRefusedWithItsCandidatesAndNobodyIsAsked() async throws {
        let (wiring, config) = try setUp()
        let person = Scripted(.once)
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: [], confirmer: person))
        let answer = await service.answer(request([("op", "token"), ("account", "work")]), from: session)
        #expect(answer["status"] == "failed" && answer["exit"] == "2", "\(answer)")
        #expect(answer["message"]?.contains("work/a0") == true && answer["message"]?.contains("work/a1") == true, "\(answer)")
        #expect(person.count == 0)
    }

    @Test func anOutageAnswersUnavailableAndKeepsEverything() async throws {
        let http = ScriptedHTTPClient()
        http.on("POST", Self.tokenURL) { _ in ScriptedHTTPClient.json(503, #"{"error":"temporarily_unavailable"}"#) }
        let (wiring, config) = try setUp(http, expiredToken: true)
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: [AgentAllow(host: "*", accounts: ["work/a0"])], confirmer: nil))
        let answer = await service.answer(request([("op", "token"), ("account", "work/a0")]), from: session)
        #expect(answer["status"] == "unavailable" && answer["exit"] == "4", "\(answer)")
        let kept = try #require(try wiring.store.account(id: "work/a0"))
        #expect(kept.credentials.refreshToken?.value.exposedValue == "rt-secret-0" && kept.account.lastError == nil, "nothing downgraded")
    }

    @Test func anExpiredTokenIsRenewedThroughTheOneRenewalService() async throws {
        let http = ScriptedHTTPClient()
        http.on("POST", Self.tokenURL) { _ in
            ScriptedHTTPClient.json(200, #"{"token_type":"Bearer","scope":"https://graph.microsoft.com/.default","expires_in":3600,"access_token":"at-renewed","refresh_token":"rt-new"}"#)
        }
        let (wiring, config) = try setUp(http, expiredToken: true)
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: [AgentAllow(host: "*", accounts: ["work/a0"])], confirmer: nil))
        let answer = await service.answer(request([("op", "kube"), ("account", "work/a0")]), from: session)
        #expect(answer["status"] == "ok" && answer["access_token"] == "at-renewed", "\(answer)")
        #expect(try wiring.store.account(id: "work/a0")?.credentials.refreshToken?.value.exposedValue == "rt-new", "the rotated token stays here")
    }

    @Test func aSignInHappensOnTheAgentsSideThenTheTokenIsAnswered() async throws {
        let (wiring, config) = try setUp(needsSignIn: true)
        let allow = AgentPolicy(allows: [AgentAllow(host: "*", accounts: ["work/a0"])], confirmer: nil)
        let without = await AgentService(wiring: wiring, config: config, policy: allow).answer(request([("op", "token"), ("account", "work/a0")]), from: session)
        #expect(without["status"] == "needs-sign-in" && without["exit"] == "3", "\(without)")
        let signIn = StoringSignIn(store: wiring.store, clock: clock)
        let with = await AgentService(wiring: wiring, config: config, policy: allow, signingIn: signIn)
            .answer(request([("op", "token"), ("account", "work/a0")]), from: session)
        #expect(with["status"] == "ok" && with["access_token"] == "at-after-sign-in", "\(with)")
        #expect(signIn.calls.withLock { $0 } == 1)
    }

    @Test func gitAndDockerAreRoutedByTheSameRulesAsTheHelpers() async throws {
        let (wiring, config) = try setUp(extra: """
            [[credential]]
            url = "https://dev.azure.com/contoso"
            account = "work/a0"
            [[credential]]
            url = "https://registry.contoso.test"
            account = "work/a1"
            registry = "docker"
            """)
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: [AgentAllow(host: "*", accounts: ["work"])], confirmer: nil))
        let git = await service.answer(request([("op", "git"), ("url", "https://dev.azure.com/contoso/repo")]), from: session)
        #expect(git["status"] == "ok" && git["password"] == "at-secret-0" && git["username"] == "taro@contoso.com", "\(git)")
        let uncovered = await service.answer(request([("op", "git"), ("url", "https://github.com/x/y")]), from: session)
        #expect(uncovered["status"] == "none" && uncovered["password"] == nil)
        let climbing = await service.answer(request([("op", "git"), ("url", "https://dev.azure.com/contoso/%2e%2e/evil")]), from: session)
        #expect(climbing["status"] == "none" && climbing["message"]?.contains("dot segment") == true, "\(climbing)")
        let docker = await service.answer(request([("op", "docker"), ("server", "registry.contoso.test")]), from: session)
        #expect(docker["status"] == "ok" && docker["secret"] == "at-secret-1" && docker["username"] == "hanako@contoso.com", "\(docker)")
        let plain = await service.answer(request([("op", "docker"), ("server", "http://registry.contoso.test")]), from: session)
        #expect(plain["status"] == "failed" && plain["secret"] == nil, "\(plain)")
        let routes = await service.answer(request([("op", "routes")]), from: session)
        #expect(routes.values("url") == ["https://dev.azure.com/contoso", "https://registry.contoso.test"])
        #expect(routes.values("kind") == ["git", "docker"] && routes.values("account") == ["work/a0", "work/a1"])
        #expect(!routes.body().containsSubsequence(Array("secret".utf8)))
    }

    @Test func aRequestWithoutVersionOrOpIsAUsageFailure() async throws {
        let (wiring, config) = try setUp()
        let service = AgentService(wiring: wiring, config: config, policy: AgentPolicy(allows: [], confirmer: nil))
        #expect(await service.answer(AgentMessage([AgentMessage.Field("op", "token")]), from: session)["exit"] == "2")
        let unknown = await service.answer(request([("op", "refresh")]), from: session)
        #expect(unknown["status"] == "failed" && unknown["message"]?.contains("op=refresh") == true)
    }
}

extension Array where Element == UInt8 {
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
