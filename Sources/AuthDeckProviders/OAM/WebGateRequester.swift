import Foundation
import AuthDeckCore
import AuthDeckHTTP
import AuthDeckOAuth

/// `authdeck request` for an account of a Mobile and Social server: a REST call through an 11g
/// R2 WebGate, made as the OAM SDK makes it (PROVIDERS.md §5, "WebGate-protected REST").
///
/// The request carries the SDK's User-Agent, so the WebGate challenges (`401` with
/// `WWW-Authenticate: OAM-Auth realm="…", request-ctx="…"`) instead of redirecting to a login
/// page. The challenge is answered with the access token the account holds for that realm at
/// that origin (`WebGateRealm`), else with one the Mobile and Social server's `access`
/// operation mints for the user token, the request context and the full URL that challenged;
/// the token is kept, sealed with the account, and the request sent again with
/// `Authorization: OAM-Auth <token>`. A kept token the WebGate refuses is dropped and one asked
/// for again, once. A user token the server refuses is renewed (`OAMAdapter.renew`: silently
/// only with a remembered password), else the renewal records that the account needs sign-in
/// and the session's tokens are marked expired (`endSession`); nothing else is deleted.
///
/// Why the first request goes without a token: only the challenge says which WebGate guards
/// the URL, so no token is offered to a resource that did not ask for it. Where a token goes:
/// only to the origin that challenged for it, which is the one the person named (its
/// `SecretPassage`, asked by `HTTPClient.send`); a redirect elsewhere is followed bare and a
/// challenge from elsewhere is the answer, never obeyed.
struct WebGateRequester: Sendable {
    let requester: ResourceRequester
    let adapter: OAMAdapter
    let service: OAMRestService

    /// The WebGate path of `requester`, when its adapter is a Mobile and Social server's.
    init?(_ requester: ResourceRequester) {
        guard let adapter = requester.adapter as? OAMAdapter, let service = adapter.restService else { return nil }
        self.requester = requester
        self.adapter = adapter
        self.service = service
    }

    /// A challenge read: the WebGate, its request context and the URL it guards.
    struct Challenged {
        var gate: WebGateRealm
        var challenge: WebGateChallenge
        var resource: String
    }

    func send(_ request: HTTPRequest, accountId: String,
              output: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) async throws -> ResourceRequester.Outcome {
        guard let origin = GrantHome.origin(of: request.url) else { throw HTTPError.invalidURL(request.url) }
        let renewer = requester.renewer
        let stored = try await renewer.renew(accountId, with: adapter)
        var sdk = request
        // The WebGate tells the SDK from a browser by this prefix (OAMAuthUserAgentPrefix).
        sdk.headers.removeAll { $0.name.lowercased() == "user-agent" }
        sdk.headers.append(HTTPHeader("User-Agent", service.settings.userAgent))
        let first = try await pass(sdk, token: nil, output: output)
        guard first.challenged else { return first.outcome }
        var asked = try read(first.outcome, origin: origin, request: request)
        if let kept = asked.gate.token(in: stored.credentials) {
            let second = try await pass(sdk, token: kept.value, output: output)
            guard second.challenged else { return second.outcome }
            _ = try await renewer.amend(accountId, detail: "the WebGate refused the access token for \(Self.shown(asked.gate)); dropped, asking for another") {
                $0.accessTokens.removeAll { $0.id == kept.id }
            }
            asked = try read(second.outcome, origin: origin, request: request)
        }
        let token = try await mint(asked, accountId: accountId, stored: stored)
        let last = try await pass(sdk, token: token.value, output: output)
        if last.challenged {
            _ = try? await renewer.amend(accountId, detail: "the WebGate refused a new access token for \(Self.shown(asked.gate)); dropped") {
                $0.accessTokens.removeAll { $0.id == token.id }
            }
            throw AuthFailure(.misconfigured, code: "webgate_refused",
                              remedy: "the WebGate at \(origin) (realm \(Self.shownRealm(asked.gate.realm))) refused the access token the Mobile and Social server had just issued for it (HTTP \(last.outcome.response.status)); nothing more was sent",
                              providerAsked: false)
        }
        var outcome = last.outcome
        outcome.renewed = true
        return outcome
    }

    /// One pass through the redirects with `token` (none: bare) for the request's origin; an
    /// `OAM-Auth` challenge there ends it as challenged.
    func pass(_ request: HTTPRequest, token: Secret?,
              output: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) async throws -> (outcome: ResourceRequester.Outcome, challenged: Bool) {
        var headers = adapter.resourceHeaders.map { HTTPHeader($0.name, $0.value) }
        if let token { headers.append(HTTPHeader("Authorization", "\(WebGateRealm.tokenType) \(token.exposedValue)")) }
        return try await requester.attempt(request, carrying: (headers, nil), output: output) { status, headers in
            status == 401 && WebGateChallenge.present(in: headers)
        }
    }

    /// The challenge that ended `outcome`, or why it is not answered (nothing is sent then).
    func read(_ outcome: ResourceRequester.Outcome, origin: String, request: HTTPRequest) throws -> Challenged {
        do {
            let challenge = try WebGateChallenge(headers: outcome.response.headers)
            return Challenged(gate: WebGateRealm(realm: challenge.realm, origin: origin), challenge: challenge,
                              resource: outcome.hops.last ?? request.url)
        } catch let refusal as WebGateChallenge.Refusal {
            throw AuthFailure(.misconfigured, code: "bad_challenge",
                              remedy: "the WebGate at \(origin) sent an OAM-Auth challenge authdeck does not answer: \(refusal); nothing was sent to the Mobile and Social server",
                              providerAsked: false)
        }
    }

    /// A new access token for the WebGate of `asked`, kept with the account before it is used.
    func mint(_ asked: Challenged, accountId: String, stored: StoredAccount) async throws -> AccessToken {
        func access(_ user: StoredAccount) async throws -> OAMRestService.Issued {
            guard let token = OAMAdapter.heldUserToken(user) else {
                throw AuthFailure(.needsInteraction, code: "no_credential",
                                  remedy: "\(accountId) holds no Mobile and Social user token; sign in: `authdeck login \(user.account.providerId)`",
                                  providerAsked: false)
            }
            // A registered mobile client's calls carry its handle (`restService(for:)`).
            return try await (adapter.restService(for: user) ?? service).access(userToken: token.value, context: asked.challenge.context,
                                                                                 resource: asked.resource)
        }
        let issued: OAMRestService.Issued
        do {
            issued = try await access(stored)
        } catch let refused as AuthFailure where refused.errorClass == .needsInteraction && refused.providerAsked {
            // The server refused the user token: a new one from the remembered password, or the
            // renewal records that the account needs sign-in (and throws).
            let renewed: StoredAccount
            do {
                renewed = try await requester.renewer.renew(accountId, with: adapter, force: true)
            } catch let failure as AuthFailure where failure.errorClass == .needsInteraction {
                try? await endSession(accountId)
                throw failure
            }
            issued = try await access(renewed)
        }
        // It goes in a header: a value that could split it is not sent.
        guard !issued.token.exposedValue.isEmpty, issued.token.exposedValue.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw AuthFailure(.misconfigured, code: "bad_token",
                              remedy: "the Mobile and Social server (\(service.settings.base)) issued an access token that cannot go in an Authorization header; nothing was sent")
        }
        let token = AccessToken(id: UUIDString.make(), value: issued.token, scopes: [], requestedScopes: [asked.gate.scope],
                                tokenType: WebGateRealm.tokenType, obtainedAt: requester.renewer.clock.now(), expiresAt: nil)
        _ = try await requester.renewer.amend(accountId, detail: "access token for \(Self.shown(asked.gate)) obtained") {
            $0.accessTokens.removeAll { WebGateRealm(token: $0) == asked.gate }
            $0.accessTokens.append(token)
        }
        return token
    }

    /// Marks the user token the server refused, and the WebGate tokens minted in its session,
    /// as expired now — kept, not deleted. Why: they carry no expiry (PROVIDERS.md §5: good until
    /// refused), so held as they were they would still count as usable, and the account would
    /// read "signed in" — and `token` hand out a dead user token — until a person looked.
    func endSession(_ accountId: String) async throws {
        let now = requester.renewer.clock.now()
        _ = try await requester.renewer.amend(accountId, detail: "the Mobile and Social server refused the user token: it and the WebGate tokens of its session are kept, marked expired") {
            for i in $0.accessTokens.indices where $0.accessTokens[i].tokenType == OAMAdapter.userTokenType || WebGateRealm(token: $0.accessTokens[i]) != nil {
                if $0.accessTokens[i].expiresAt.map({ $0 > now }) ?? true { $0.accessTokens[i].expiresAt = now }
            }
        }
    }

    /// A WebGate as a message or an event names it.
    static func shown(_ gate: WebGateRealm) -> String {
        "WebGate realm \(shownRealm(gate.realm)) at \(gate.origin)"
    }

    static func shownRealm(_ realm: String) -> String {
        "\"" + TerminalText.inert(String(realm.prefix(120))) + "\""
    }
}
