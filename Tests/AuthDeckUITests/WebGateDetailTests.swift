import Testing
import AuthDeckCore
import AuthDeckTestSupport
import AuthDeckUI

/// The deck's detail pane names the WebGate tokens a Mobile and Social account holds (issue
/// 41, WebGate): realm, origin and expiry, inert like every line.
@Suite struct WebGateDetailTests {
    @Test func eachWebGateTokenIsShownByRealmAndOrigin() throws {
        let now = DeckTestState.now
        let hr = WebGateRealm(realm: "WebGateHR:2 /webgate/hr", origin: "https://api.example")
        let hostile = WebGateRealm(realm: "Gate\u{1b}[2J:2 /x", origin: "https://api.example:8443")
        let tokens = [AccessToken(id: "u", value: Secret("USER-1"), scopes: [], tokenType: "USERTOKEN", obtainedAt: now, expiresAt: nil),
                      AccessToken(id: "h", value: Secret("AT-HR"), scopes: [], requestedScopes: [hr.scope], tokenType: "OAM-Auth",
                                  obtainedAt: now, expiresAt: nil),
                      AccessToken(id: "x", value: Secret("AT-X"), scopes: [], requestedScopes: [hostile.scope], tokenType: "OAM-Auth",
                                  obtainedAt: now, expiresAt: now + .minutes(30))]
        let account = Account(id: "gl/0000b041", providerId: "gl", subject: "oam:taro@api.example", username: "taro@api.example",
                              createdAt: now - .hours(1), lastSignInAt: now - .hours(1))
        let s = DeckTestState.make(width: 120, height: 40, extra: [StoredAccount(account: account, credentials: Credentials(accessTokens: tokens))])
        let detail = try #require(s.rows.first { $0.id == account.id }).detail(now: now)
        #expect(detail.contains { $0.hasPrefix("WebGate token, realm WebGateHR:2 /webgate/hr at https://api.example — no expiry") }, "\(detail)")
        #expect(detail.contains { $0.hasPrefix("WebGate token, realm Gate␛[2J:2 /x at https://api.example:8443 — ") && $0.contains("in 30m") }, "\(detail)")
        #expect(!detail.joined().contains("AT-HR") && !detail.joined().contains("\u{1b}"))
    }
}
